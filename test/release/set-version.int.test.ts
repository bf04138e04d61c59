import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/* `npm run version:set -- X.Y.Z` on a small copy of the workspace layout. */

const script = resolve(__dirname, '..', '..', 'scripts', 'set-version.mjs');

const write = (root: string, file: string, value: object): void => {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), `${JSON.stringify(value, null, 2)}\n`);
};
const read = (root: string, file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;

const workspace = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'teamlog-version-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(script, join(root, 'scripts', 'set-version.mjs'));
  write(root, 'package.json', { name: 'teamlog', version: '0.1.0', private: true, workspaces: ['packages/*'] });
  write(root, 'packages/events/package.json', {
    name: '@teamlog/events',
    version: '0.1.0',
    dependencies: { 'io-ts': '^2.2.22' },
  });
  write(root, 'packages/cli/package.json', {
    name: '@teamlog/cli',
    version: '0.1.0',
    dependencies: { '@teamlog/events': '0.1.0', 'fp-ts': '^2.16.11' },
    devDependencies: { '@teamlog/test-support': '0.1.0' },
  });
  write(root, 'package-lock.json', {
    name: 'teamlog',
    version: '0.1.0',
    packages: {
      '': { name: 'teamlog', version: '0.1.0' },
      'node_modules/io-ts': { version: '2.2.22' },
      'packages/cli': {
        name: '@teamlog/cli',
        version: '0.1.0',
        dependencies: { '@teamlog/events': '0.1.0', 'fp-ts': '^2.16.11' },
      },
      'packages/cli/node_modules/uuid': { version: '10.0.0' },
    },
  });
  return root;
};

const setVersion = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'scripts', 'set-version.mjs'), ...args], { encoding: 'utf8' });

describe('npm run version:set', () => {
  it('sets one version on every package, every @teamlog dependency and the lockfile, and leaves other versions alone', () => {
    const root = workspace();
    try {
      const run = setVersion(root, '0.2.0');
      expect(run.status).toBe(0);
      expect(read(root, 'package.json').version).toBe('0.2.0');
      expect(read(root, 'packages/events/package.json')).toEqual({
        name: '@teamlog/events',
        version: '0.2.0',
        dependencies: { 'io-ts': '^2.2.22' },
      });
      expect(read(root, 'packages/cli/package.json')).toEqual({
        name: '@teamlog/cli',
        version: '0.2.0',
        dependencies: { '@teamlog/events': '0.2.0', 'fp-ts': '^2.16.11' },
        devDependencies: { '@teamlog/test-support': '0.2.0' },
      });
      expect(read(root, 'package-lock.json')).toEqual({
        name: 'teamlog',
        version: '0.2.0',
        packages: {
          '': { name: 'teamlog', version: '0.2.0' },
          'node_modules/io-ts': { version: '2.2.22' },
          'packages/cli': {
            name: '@teamlog/cli',
            version: '0.2.0',
            dependencies: { '@teamlog/events': '0.2.0', 'fp-ts': '^2.16.11' },
          },
          'packages/cli/node_modules/uuid': { version: '10.0.0' },
        },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses something that is not a version, with usage on one line, and writes nothing', () => {
    const root = workspace();
    try {
      const before = readFileSync(join(root, 'packages/cli/package.json'), 'utf8');
      const run = setVersion(root, 'next');
      expect(run.status).toBe(2);
      expect(run.stderr).toBe('usage: npm run version:set -- X.Y.Z (a semantic version; got "next")\n');
      expect(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')).toBe(before);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
