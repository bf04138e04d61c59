import type { PackageManifest, WorkspacePackage } from '../src/package-manifest';
import { releaseManifestProblems } from '../src/release-manifest-problems';

const product = (directory: string, fields: Partial<PackageManifest> = {}): WorkspacePackage => ({
  directory,
  manifest: {
    name: `@teamlog/${directory}`,
    version: '1.0.0',
    description: `the ${directory}`,
    license: 'MIT',
    repository: { type: 'git', url: 'git+https://example.invalid/teamlog.git' },
    engines: { node: '>=20' },
    files: ['dist'],
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    ...fields,
  },
});
const privatePackage = (directory: string, fields: Partial<PackageManifest> = {}): WorkspacePackage => ({
  directory,
  manifest: { name: `@teamlog/${directory}`, version: '1.0.0', private: true, ...fields },
});

describe('the check of the workspace manifests before packing', () => {
  it('accepts products that say what a user and the registry read, on one version, depending on each other exactly', () => {
    expect(
      releaseManifestProblems('1.0.0', [
        product('events'),
        product('domain', { dependencies: { '@teamlog/events': '1.0.0', 'fp-ts': '^2.16.0' } }),
        privatePackage('bench'),
      ]),
    ).toEqual([]);
  });

  it('names each missing field of a product, and asks nothing of a private package', () => {
    const bare: WorkspacePackage = {
      directory: 'store',
      manifest: { name: '@teamlog/store', version: '1.0.0', exports: { '.': './dist/index.js' } },
    };
    expect(releaseManifestProblems('1.0.0', [bare, privatePackage('bench')])).toEqual([
      '@teamlog/store: package.json has no description',
      '@teamlog/store: package.json has no license',
      '@teamlog/store: package.json has no repository',
      '@teamlog/store: package.json has no engines.node',
      '@teamlog/store: package.json has no files',
      '@teamlog/store: package.json has no exports["."] with "types" and "default"',
    ]);
  });

  it('refuses a second version anywhere, and a product range other than the one version', () => {
    expect(
      releaseManifestProblems('1.0.0', [
        product('events', { version: '1.0.1' }),
        product('team', { dependencies: { '@teamlog/events': '^1.0.0' } }),
        privatePackage('bench', { version: '0.9.0' }),
      ]),
    ).toEqual([
      '@teamlog/events: version 1.0.1, not the one version 1.0.0',
      '@teamlog/team: depends on @teamlog/events@^1.0.0, not the one version 1.0.0',
      '@teamlog/bench: version 0.9.0, not the one version 1.0.0',
    ]);
  });

  it('refuses a product that depends on a private package (a user could not install it), but allows it as a devDependency', () => {
    expect(
      releaseManifestProblems('1.0.0', [
        product('cli', {
          dependencies: { '@teamlog/postgres-testing': '1.0.0' },
          devDependencies: { '@teamlog/test-support': '1.0.0' },
        }),
        privatePackage('postgres-testing'),
        privatePackage('test-support'),
      ]),
    ).toEqual(['@teamlog/cli: depends on @teamlog/postgres-testing, which is private (never published)']);
  });
});
