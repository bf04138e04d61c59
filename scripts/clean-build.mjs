#!/usr/bin/env node
// `npm run clean`: removes every package's build output (`packages/*/dist`, the tsc build info and
// the esbuild bundles in it). `tsc -b --clean` removes only the outputs of sources that still exist,
// so a renamed or deleted source left its old `.js` behind, which the packed-install check then
// refuses as a file with no source.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = join(root, 'packages');
const removed = [];
for (const name of existsSync(packages) ? readdirSync(packages) : []) {
  const dist = join(packages, name, 'dist');
  if (!existsSync(dist)) continue;
  rmSync(dist, { recursive: true, force: true });
  removed.push(`packages/${name}/dist`);
}
console.log(removed.length === 0 ? 'nothing to clean' : `removed ${removed.join(', ')}`);
