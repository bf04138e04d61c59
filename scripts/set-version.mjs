#!/usr/bin/env node
// `npm run version:set -- X.Y.Z`: one version for every package, bumped together. Sets the version
// of the root and of every packages/*/package.json, every @teamlog/* dependency range to exactly
// that version, and the same in package-lock.json, so `npm ci` and the packed tarballs agree.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const version = process.argv[2];
if (version === undefined || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
  console.error(
    `usage: npm run version:set -- X.Y.Z (a semantic version; got ${version === undefined ? 'nothing' : JSON.stringify(version)})`,
  );
  process.exit(2);
}

const read = (file) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const write = (file, value) => writeFileSync(join(root, file), `${JSON.stringify(value, null, 2)}\n`);

/** Every @teamlog/* range of a dependency map set to the one version. */
const pinTeamlog = (dependencies) => {
  for (const name of Object.keys(dependencies ?? {})) if (name.startsWith('@teamlog/')) dependencies[name] = version;
};
const setVersion = (manifest) => {
  manifest.version = version;
  pinTeamlog(manifest.dependencies);
  pinTeamlog(manifest.devDependencies);
};

const workspaces = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'package.json')),
);
const manifests = [
  { file: 'package.json', value: read('package.json') },
  ...workspaces.map((name) => ({
    file: `packages/${name}/package.json`,
    value: read(`packages/${name}/package.json`),
  })),
];
for (const manifest of manifests) setVersion(manifest.value);

const lock = existsSync(join(root, 'package-lock.json')) ? read('package-lock.json') : undefined;
if (lock !== undefined) {
  lock.version = version;
  for (const [path, entry] of Object.entries(lock.packages ?? {}))
    if (path === '' || /^packages\/[^/]+$/.test(path)) setVersion(entry);
}

// Written only after everything was read and changed: a failure above leaves every file as it was.
for (const manifest of manifests) write(manifest.file, manifest.value);
if (lock !== undefined) write('package-lock.json', lock);
console.log(
  `version ${version}: ${manifests.length} package.json files${lock === undefined ? '' : ' and package-lock.json'}`,
);
