#!/usr/bin/env node
// Bundles the bench's measuring child into packages/bench/dist/bundle/bench-child.js the way
// bundle-cli.mjs bundles the CLI, so the bench measures the code as the CLI ships it: direct calls
// between packages (no `export *` getters) and one file to compile. Its baselines run in the same
// child, so the ratios compare like with like (docs/benchmarks.md, What is measured).
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, external, packages, sqliteWriterWorkerEntry } from './bundle-options.mjs';

await build({
  ...bundleOptions,
  entryPoints: {
    'bench-child': join(packages, 'bench', 'src', 'bench-child.ts'),
    'sqlite-writer-worker': sqliteWriterWorkerEntry,
  },
  outdir: join(packages, 'bench', 'dist', 'bundle'),
  // Emmett is the PostgreSQL comparison's own store: measured as it is installed.
  external: [...external, '@event-driven-io/emmett-postgresql'],
  // For the bench's profiles only (profile-run.ts names each frame's source): no comment in the bundle.
  sourcemap: 'external',
  sourcesContent: false,
});
