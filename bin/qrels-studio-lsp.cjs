#!/usr/bin/env node
// The Qrels Studio language server (dist/server.cjs) for any LSP client: Neovim, Helix, Zed, Emacs. Speaks LSP over
// stdio unless told otherwise (`--node-ipc`, `--socket=N`). See the README for editor set-up.
'use strict';
require('./launch.cjs').launch('qrels-studio-lsp', 'server.cjs', ['--stdio']);
