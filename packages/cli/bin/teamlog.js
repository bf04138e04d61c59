#!/usr/bin/env node

// The `teamlog` command: the CLI bundled into one file (in a clone, run `npm run build` first).
require('../dist/teamlog.js');
