#!/usr/bin/env node
// Bundles the `teamlog` command into one file, packages/cli/dist/teamlog.js, from the TypeScript
// sources: a run then resolves and compiles one file instead of ~200, and a call from one package
// into another is a direct call, not a `export *` re-export getter (docs/benchmarks.md, The CLI as
// one bundled file). Native and heavy third-party modules stay external, loaded only when used.
// The SQLite writer thread's script is its own entry beside it (its thread loads it by path).
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, packages, sqliteWriterWorkerEntry } from './bundle-options.mjs';

await build({
  ...bundleOptions,
  entryPoints: {
    teamlog: join(packages, 'cli', 'src', 'main.ts'),
    'sqlite-writer-worker': sqliteWriterWorkerEntry,
  },
  outdir: join(packages, 'cli', 'dist'),
});
