-- Used by test/editors.test.ts: Neovim has loaded the README's configuration as its init.lua
-- (`-u`); this opens $SVC_FILE the way a user does, waits for the language server's
-- diagnostics and writes what Neovim saw to $SVC_OUT as JSON.
local result = {}
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SVC_FILE')))
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  result.clients = {}
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    table.insert(result.clients, { name = client.name, cmd = client.config.cmd })
  end
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity, code = d.code, message = d.message })
  end
  vim.lsp.stop_client(vim.lsp.get_active_clients())
end)
if not ok then result.error = tostring(err) end
vim.fn.writefile({ vim.fn.json_encode(result) }, os.getenv('SVC_OUT'))
vim.cmd('qa!')
