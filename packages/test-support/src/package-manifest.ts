import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { decodeWith } from '@teamlog/events';

/* The fields of a package.json the release checks read; others are kept but not looked at. */

const StringMap = t.record(t.string, t.string);

export const PackageManifest = t.intersection([
  t.type({ name: t.string, version: t.string }),
  t.partial({
    private: t.boolean,
    description: t.string,
    license: t.string,
    repository: t.union([t.string, t.type({ type: t.string, url: t.string })]),
    engines: StringMap,
    main: t.string,
    types: t.string,
    exports: t.union([t.string, t.record(t.string, t.unknown)]),
    bin: t.union([t.string, StringMap]),
    files: t.array(t.string),
    dependencies: StringMap,
    devDependencies: StringMap,
  }),
]);
export type PackageManifest = t.TypeOf<typeof PackageManifest>;

export interface WorkspacePackage {
  /** The directory name under packages/ (`store-sqlite`). */
  readonly directory: string;
  readonly manifest: PackageManifest;
}

export const readManifest = (file: string): PackageManifest => {
  const decoded = decodeWith(PackageManifest)(JSON.parse(readFileSync(file, 'utf8')));
  if (isLeft(decoded)) throw decoded.left.at({ file });
  return decoded.right;
};

/** Every package under `<root>/packages`, in directory order. */
export const readWorkspacePackages = (root: string): WorkspacePackage[] =>
  readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'packages', entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort()
    .map((directory) => ({ directory, manifest: readManifest(join(root, 'packages', directory, 'package.json')) }));

/** A product package is one a user installs: every workspace package that is not private. */
export const isProduct = (workspace: WorkspacePackage): boolean => workspace.manifest.private !== true;
