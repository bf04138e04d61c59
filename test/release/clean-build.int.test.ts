import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/* `npm run clean` on a small copy of the workspace layout. */

const script = resolve(__dirname, '..', '..', 'scripts', 'clean-build.mjs');

const workspace = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'teamlog-clean-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(script, join(root, 'scripts', 'clean-build.mjs'));
  for (const file of [
    'packages/store-sqlite/src/sqlite-event-store.ts',
    'packages/store-sqlite/dist/sqlite-event-store.js',
    'packages/store-sqlite/dist/sqlite-staging-unit.js',
    'packages/store-sqlite/dist/.tsbuildinfo',
    'packages/cli/src/main.ts',
    'packages/cli/dist/teamlog.js',
    'packages/events/src/index.ts',
  ]) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
};

const clean = (root: string) =>
  spawnSync(process.execPath, [join(root, 'scripts', 'clean-build.mjs')], { encoding: 'utf8' });

describe('npm run clean', () => {
  it('removes every package build output, an output whose source is gone included, and keeps the sources', () => {
    const root = workspace();
    try {
      const result = clean(root);
      expect(result.status).toBe(0);
      expect(result.stdout.trim()).toBe('removed packages/cli/dist, packages/store-sqlite/dist');
      expect(existsSync(join(root, 'packages/store-sqlite/dist'))).toBe(false);
      expect(existsSync(join(root, 'packages/cli/dist'))).toBe(false);
      expect(existsSync(join(root, 'packages/store-sqlite/src/sqlite-event-store.ts'))).toBe(true);
      expect(existsSync(join(root, 'packages/events/src/index.ts'))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('says there is nothing to clean when nothing was built', () => {
    const root = workspace();
    try {
      clean(root);
      const again = clean(root);
      expect(again.status).toBe(0);
      expect(again.stdout.trim()).toBe('nothing to clean');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
