import type { PackageManifest } from './package-manifest';
import type { PackedTarball } from './packed-tarball';

/*
 * What a product tarball must and must not hold: no tests, fixtures, bench or build info; every
 * file its package.json points at; and no compiled file whose source is gone (a stale dist/ from
 * an earlier build would ship a module nobody maintains).
 */

const forbiddenPath = /(^|\/)(test|tests|__tests__|fixtures|bench|coverage|test-output)\//;
const testFile = /\.(test|spec)\.[cm]?[jt]sx?$/;
const buildInfo = /\.tsbuildinfo$/;

const forbiddenReason = (path: string): string | undefined => {
  if (forbiddenPath.test(path)) return 'test, fixture or bench folder';
  if (testFile.test(path)) return 'test file';
  if (buildInfo.test(path)) return 'TypeScript build info';
  return undefined;
};

/** Compiled output and the folder of its sources (the dashboard's browser code builds from client/). */
const outputRoots = [
  { output: 'dist/client/', source: 'client/' },
  { output: 'dist/', source: 'src/' },
] as const;
const compiled = /^(.*?)(\.d\.ts\.map|\.d\.ts|\.js\.map|\.js)$/;

/**
 * The CLI's files scripts/bundle-cli.mjs bundles, and the entry each is built from (relative to
 * packages/cli): not one source per output as tsc writes them.
 */
const bundledOutputs: Readonly<Record<string, string>> = {
  'dist/teamlog.js': 'src/main.ts',
  'dist/sqlite-writer-worker.js': '../store-sqlite/src/sqlite-writer-worker.ts',
};

/** The TypeScript source a compiled file comes from, or undefined when the path is not compiled output. */
export const sourceOfOutput = (path: string): string | undefined => {
  const entry = bundledOutputs[path];
  if (entry !== undefined) return entry;
  const root = outputRoots.find(({ output }) => path.startsWith(output));
  const match = root === undefined ? null : compiled.exec(path.slice(root.output.length));
  return root === undefined || match === null ? undefined : `${root.source}${match[1]}.ts`;
};

const stringsIn = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : typeof value === 'object' && value !== null
      ? Object.values(value).flatMap(stringsIn)
      : [];

/** The files package.json points at (main, types, exports without patterns, bin). */
export const pointedFiles = (manifest: PackageManifest): string[] => [
  ...new Set(
    [manifest.main, manifest.types, ...stringsIn(manifest.exports), ...stringsIn(manifest.bin)].flatMap((path) =>
      path === undefined || path.includes('*') ? [] : [path.replace(/^\.\//, '')],
    ),
  ),
];

/** Every problem of one tarball, one line each naming the package and the file. */
export const tarballProblems = (
  tarball: PackedTarball,
  manifest: PackageManifest,
  sourceExists: (path: string) => boolean,
): string[] => {
  const paths = new Set(tarball.files.map((file) => file.path));
  const where = `${tarball.name} (${tarball.filename})`;
  return [
    ...tarball.files.flatMap(({ path }) => {
      const reason = forbiddenReason(path);
      return reason === undefined ? [] : [`${where}: ships ${path} (${reason})`];
    }),
    ...pointedFiles(manifest).flatMap((path) =>
      paths.has(path) ? [] : [`${where}: package.json points at ${path}, which the tarball does not hold`],
    ),
    ...tarball.files.flatMap(({ path }) => {
      const source = sourceOfOutput(path);
      return source === undefined || sourceExists(source)
        ? []
        : [`${where}: ships ${path}, but ${source} is gone (stale build output: npm run clean && npm run build)`];
    }),
  ];
};

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** One line per tarball: name, files, packed and unpacked size; then the total. */
export const tarballSizeReport = (tarballs: readonly PackedTarball[]): string[] => {
  const width = Math.max(...tarballs.map((tarball) => tarball.name.length), 'total'.length);
  const line = (name: string, files: number, size: number, unpacked: number): string =>
    `${name.padEnd(width)}  ${String(files).padStart(5)} files  ${kib(size).padStart(10)} packed  ${kib(unpacked).padStart(10)} unpacked`;
  const sum = (pick: (tarball: PackedTarball) => number): number =>
    tarballs.reduce((total, tarball) => total + pick(tarball), 0);
  return [
    ...tarballs.map((tarball) => line(tarball.name, tarball.files.length, tarball.size, tarball.unpackedSize)),
    line(
      'total',
      sum((tarball) => tarball.files.length),
      sum((tarball) => tarball.size),
      sum((tarball) => tarball.unpackedSize),
    ),
  ];
};
