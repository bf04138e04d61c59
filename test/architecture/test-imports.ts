import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';
import { repositoryRoot } from './package-graph';

/* How tests reach code that is not theirs: every import of a test file, judged by where it leads. */

const testFolders = (): string[] => [
  ...readdirSync(join(repositoryRoot, 'packages'))
    .map((directory) => join(repositoryRoot, 'packages', directory, 'test'))
    .filter((folder) => existsSync(folder)),
  join(repositoryRoot, 'test'),
];

const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });

/** The package directory a repository path lies in (`packages/<name>/...`), or undefined for the root's `test/`. */
export const packageOfPath = (path: string): string | undefined => {
  const parts = relative(repositoryRoot, path).split(sep);
  return parts[0] === 'packages' ? parts[1] : undefined;
};

/**
 * Why one import of a test file reaches into another package's inside, or undefined when it does
 * not: a relative path into another package, or a subpath of a package that is not test support.
 */
export const reachIntoOtherPackage = (
  file: string,
  specifier: string,
  testSupport: ReadonlySet<string>,
): string | undefined => {
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(file), specifier);
    const from = packageOfPath(file);
    const to = packageOfPath(target);
    if (to !== undefined && to !== from)
      return `${specifier} is inside packages/${to}: import @teamlog/${to}, or move what is shared to a test-support package`;
    return undefined;
  }
  const subpath = /^@teamlog\/([a-z-]+)\/(.+)$/.exec(specifier);
  if (subpath !== null && !testSupport.has(subpath[1] as string))
    return `${specifier} reaches inside @teamlog/${subpath[1]}: import its public entry @teamlog/${subpath[1]}`;
  return undefined;
};

/** `file: reason` for every import of every test file that reaches into another package. */
export const testImportsIntoOtherPackages = (testSupport: ReadonlySet<string>): string[] =>
  testFolders()
    .flatMap(filesUnder)
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.flatMap(({ fileName }) => reachIntoOtherPackage(file, fileName, testSupport) ?? [])
        .map((reason) => `${relative(repositoryRoot, file)}: ${reason}`),
    );
