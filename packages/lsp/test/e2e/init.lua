-- Headless Neovim 0.7 as an independent LSP client of the built server.
-- Reads its task from $SVC_E2E_TASK (JSON), writes what it saw to $SVC_E2E_OUT (JSON), quits.
local task = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv('SVC_E2E_TASK')), '\n'))
local results = {}

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(task.file))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  local client_id = vim.lsp.start_client({
    name = 'svc-manifest-lsp',
    cmd = { task.node, task.server, '--stdio' },
    root_dir = vim.fn.fnamemodify(task.file, ':h'),
  })
  assert(client_id, 'the client did not start')
  vim.lsp.buf_attach_client(bufnr, client_id)

  assert(vim.wait(30000, function() return #vim.diagnostic.get(bufnr) >= task.expectedDiagnostics end, 20), 'no diagnostics arrived')
  results.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(results.diagnostics, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, code = d.code or lsp.code, message = d.message,
    })
  end

  local function request(method, params)
    params.textDocument = { uri = uri }
    local responses = vim.lsp.buf_request_sync(bufnr, method, params, 20000)
    assert(responses and responses[client_id], method .. ' got no answer')
    assert(not responses[client_id].err, method .. ' failed: ' .. vim.inspect(responses[client_id].err))
    return responses[client_id].result
  end

  local completion = request('textDocument/completion', { position = task.completionAt })
  results.completion = {}
  for _, item in ipairs(completion.items or completion) do table.insert(results.completion, item.label) end

  local hover = request('textDocument/hover', { position = task.hoverAt })
  results.hover = hover and hover.contents and hover.contents.value or vim.NIL

  local edit = request('textDocument/rename', { position = task.renameAt, newName = task.newName })
  vim.lsp.util.apply_workspace_edit(edit, 'utf-16')
  results.afterRename = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'

  -- Pull diagnostics (LSP 3.17): Neovim 0.7 has no pull client, so the request is sent as is.
  local pulled = request('textDocument/diagnostic', {})
  results.pulled = { kind = pulled.kind, resultId = pulled.resultId, codes = {} }
  for _, d in ipairs(pulled.items or {}) do table.insert(results.pulled.codes, d.code) end
  local again = request('textDocument/diagnostic', { previousResultId = pulled.resultId })
  results.pulledAgain = { kind = again.kind, resultId = again.resultId }

  -- Formatting: the buffer replaced by an unformatted text, then Neovim's own formatting command.
  if task.unformatted then
    local text = task.unformatted:gsub('\n$', '')
    vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(text, '\n', true))
    vim.lsp.buf.formatting_sync(nil, 20000)
    results.afterFormat = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
  end

  vim.lsp.stop_client(client_id)
end

local ok, err = pcall(run)
if not ok then results.error = tostring(err) end
vim.fn.writefile({ vim.fn.json_encode(results) }, os.getenv('SVC_E2E_OUT'))
vim.cmd('qa!')
