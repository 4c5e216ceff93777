#!/usr/bin/env node
// The svc-manifest command: the bundled CLI (svc-manifest-main.cjs), loaded through V8's code
// cache so it starts within a small factor of a bare `node -e 0`.
'use strict';
const path = require('node:path');
const { runWithCodeCache } = require('./code-cache.cjs');

const bundle = path.join(__dirname, 'svc-manifest-main.cjs');
// `git` loads an ES module with import(), which a vm.Script cannot do on Node 20: plain require then.
if (process.argv[2] === 'git') require(bundle);
else runWithCodeCache(bundle, 'cli');
