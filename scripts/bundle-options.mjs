// What the bundles of teamlog's programs share (bundle-cli.mjs, bundle-bench-child.mjs): every
// `@teamlog/*` import resolved to that package's sources, fp-ts and io-ts as ES modules, native and
// heavy third-party modules external (docs/benchmarks.md, The CLI as one bundled file).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const packages = join(root, 'packages');

/** Third-party modules that are native, carry their own files (wasm) or are big and rarely used. */
export const external = [
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
export const teamlogSources = {
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

/** esbuild's options for one of teamlog's programs, bar its entries, output folder and extra externals. */
export const bundleOptions = {
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
};

/** The SQLite writer thread's script: the store loads it from beside the running file. */
export const sqliteWriterWorkerEntry = join(packages, 'store-sqlite', 'src', 'sqlite-writer-worker.ts');
