#!/usr/bin/env node
'use strict';
// The `teamlog` command: the compiled CLI (in a clone, run `npm run build` first).
require('../dist/main.js');
