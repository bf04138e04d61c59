import type { PackageManifest } from '../src/package-manifest';
import type { PackedTarball } from '../src/packed-tarball';
import { sourceOfOutput, tarballProblems, tarballSizeReport } from '../src/tarball-problems';

const manifest: PackageManifest = {
  name: '@teamlog/example',
  version: '1.2.3',
  main: 'dist/index.js',
  types: 'dist/index.d.ts',
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
  bin: { example: 'bin/example.js' },
};

const tarballOf = (...paths: string[]): PackedTarball => ({
  name: '@teamlog/example',
  version: '1.2.3',
  filename: 'teamlog-example-1.2.3.tgz',
  size: 2048,
  unpackedSize: 8192,
  files: paths.map((path) => ({ path, size: 100 })),
});

const complete = [
  'package.json',
  'bin/example.js',
  'dist/index.js',
  'dist/index.d.ts',
  'dist/index.js.map',
  'dist/client/app.js',
];
const sources = new Set(['src/index.ts', 'client/app.ts']);
const problemsOf = (tarball: PackedTarball): string[] =>
  tarballProblems(tarball, manifest, (path) => sources.has(path));

describe('the check of a product tarball', () => {
  it('finds nothing wrong with compiled code, its maps, the bin and package.json', () => {
    expect(problemsOf(tarballOf(...complete))).toEqual([]);
  });

  it('refuses tests, fixtures, bench and build info, naming the package, the tarball and the file', () => {
    const everySourceThere = (): boolean => true;
    const tarball = tarballOf(
      ...complete,
      'dist/test/helper.js',
      'fixtures/log.jsonl',
      'bench/main.js',
      'dist/reader.test.js',
      'dist/.tsbuildinfo',
    );
    const problems = tarballProblems(tarball, manifest, everySourceThere);
    expect(problems).toEqual([
      '@teamlog/example (teamlog-example-1.2.3.tgz): ships dist/test/helper.js (test, fixture or bench folder)',
      '@teamlog/example (teamlog-example-1.2.3.tgz): ships fixtures/log.jsonl (test, fixture or bench folder)',
      '@teamlog/example (teamlog-example-1.2.3.tgz): ships bench/main.js (test, fixture or bench folder)',
      '@teamlog/example (teamlog-example-1.2.3.tgz): ships dist/reader.test.js (test file)',
      '@teamlog/example (teamlog-example-1.2.3.tgz): ships dist/.tsbuildinfo (TypeScript build info)',
    ]);
  });

  it('refuses a tarball without a file its package.json points at (main, types, exports, bin)', () => {
    expect(problemsOf(tarballOf('package.json', 'dist/index.js'))).toEqual([
      '@teamlog/example (teamlog-example-1.2.3.tgz): package.json points at dist/index.d.ts, which the tarball does not hold',
      '@teamlog/example (teamlog-example-1.2.3.tgz): package.json points at bin/example.js, which the tarball does not hold',
    ]);
  });

  it('refuses compiled output whose source is gone (a stale dist/ of an earlier build)', () => {
    expect(problemsOf(tarballOf(...complete, 'dist/synthetic-log.js', 'dist/client/old.d.ts'))).toEqual([
      '@teamlog/example (teamlog-example-1.2.3.tgz): ships dist/synthetic-log.js, but src/synthetic-log.ts is gone (stale build output: npm run clean && npm run build)',
      '@teamlog/example (teamlog-example-1.2.3.tgz): ships dist/client/old.d.ts, but client/old.ts is gone (stale build output: npm run clean && npm run build)',
    ]);
  });

  it('maps compiled files to their sources, and leaves other files alone', () => {
    expect(sourceOfOutput('dist/views/roster.d.ts.map')).toBe('src/views/roster.ts');
    expect(sourceOfOutput('dist/client/app.js')).toBe('client/app.ts');
    expect(sourceOfOutput('static/index.html')).toBeUndefined();
    expect(sourceOfOutput('dist/data.json')).toBeUndefined();
  });

  it('finds the entry a bundled file of the CLI is built from', () => {
    expect(sourceOfOutput('dist/teamlog.js')).toBe('src/main.ts');
    expect(sourceOfOutput('dist/sqlite-writer-worker.js')).toBe('../store-sqlite/src/sqlite-writer-worker.ts');
  });

  it("reports each tarball's files and sizes, and the total", () => {
    expect(
      tarballSizeReport([
        tarballOf(...complete),
        { ...tarballOf('package.json'), name: '@teamlog/other', size: 1024, unpackedSize: 1536 },
      ]),
    ).toEqual([
      '@teamlog/example      6 files     2.0 KiB packed     8.0 KiB unpacked',
      '@teamlog/other        1 files     1.0 KiB packed     1.5 KiB unpacked',
      'total                 7 files     3.0 KiB packed     9.5 KiB unpacked',
    ]);
  });
});
