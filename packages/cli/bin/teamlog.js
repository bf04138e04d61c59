#!/usr/bin/env node

// The `teamlog` command: the compiled CLI (in a clone, run `npm run build` first).
require('../dist/main.js');
