#!/usr/bin/env node
// Bundles the `teamlog` command into one file, packages/cli/dist/teamlog.js, from the TypeScript
// sources: a run then resolves and compiles one file instead of ~200, and a call from one package
// into another is a direct call, not a `export *` re-export getter (docs/benchmarks.md, The CLI as
// one bundled file). Native and heavy third-party modules stay external, loaded only when used.
// The SQLite writer thread's script is its own entry beside it (its thread loads it by path).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = join(root, 'packages');

/** Third-party modules that are native, carry their own files (wasm) or are big and rarely used. */
const external = [
  'better-sqlite3',
  'pg',
  'pg-native',
  '@eventstore/db-client',
  '@bokuweb/zstd-wasm',
  'xxhash-wasm',
  '@modelcontextprotocol/sdk',
  'cli-progress',
  // Read by path only (require.resolve), to find a package's own files.
  '@teamlog/*/package.json',
];

/** `@teamlog/<name>` resolves to that package's sources, so the bundle holds one copy of each. */
const teamlogSources = {
  name: 'teamlog-sources',
  setup(builder) {
    builder.onResolve({ filter: /^@teamlog\/[^/]+$/ }, (args) => ({
      path: join(packages, args.path.slice('@teamlog/'.length), 'src', 'index.ts'),
    }));
    // A package that finds its own files from `__dirname` (the dashboard's static assets, the tools'
    // package.json) looks in its installed package, not beside the bundle.
    builder.onLoad({ filter: /[\\/]packages[\\/](dashboard|tools)[\\/]src[\\/][^\\/]+\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('__dirname')) return undefined;
      const name = args.path.split(/[\\/]packages[\\/]/)[1].split(/[\\/]/)[0];
      const packageDist = `require('node:path').join(require('node:path').dirname(require.resolve('@teamlog/${name}/package.json')), 'dist')`;
      return { contents: source.replaceAll('__dirname', packageDist), loader: 'ts' };
    });
  },
};

await build({
  entryPoints: {
    teamlog: join(packages, 'cli', 'src', 'main.ts'),
    'sqlite-writer-worker': join(packages, 'store-sqlite', 'src', 'sqlite-writer-worker.ts'),
  },
  outdir: join(packages, 'cli', 'dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // No keepNames: its wrappers hide the names V8 infers for `const f = () => ...` from profiles, and
  // nothing reads a class's or function's `.name` (an error's name is set where it is made).
  // fp-ts and io-ts as ES modules: bundled like ours (direct calls, unused code left out).
  mainFields: ['module', 'main'],
  external,
  plugins: [teamlogSources],
  logLevel: 'warning',
});
