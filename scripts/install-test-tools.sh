#!/usr/bin/env bash
# Installs the tools the test suite drives, on a fresh Debian machine (idempotent):
#   python3-jsonschema  an independent JSON Schema validator (schema conformance test)
#   python3-yaml        PyYAML, a YAML 1.1 reader (convert test: svc.yaml means the same to 1.1 tools)
#   neovim              a real LSP client (language server end-to-end test)
#   pre-commit          the pre-commit framework (hook test)
#   emacs-nox, elpa-eglot, elpa-yaml-mode   Emacs with eglot (the README's Emacs set-up, test/editors.test.ts);
#                       Debian 12 has Emacs 28, which needs the eglot package (built in from Emacs 29)
#   chromium, code-server on Node 24   a real VS Code workbench (extension end-to-end test)
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(python3-jsonschema python3-yaml neovim pre-commit git emacs-nox elpa-eglot elpa-yaml-mode)
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[install-test-tools] apt-get install ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The VS Code end-to-end test's tools (chromium, Node 24, code-server) install outside the workspace.
bash packages/vscode-extension/scripts/install-code-server.sh
