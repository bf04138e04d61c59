import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import * as ts from 'typescript';

/* What the packages really declare and import, read from the repository (for the architecture tests). */

export const repositoryRoot = join(__dirname, '..', '..');
const packagesRoot = join(repositoryRoot, 'packages');

export interface PackageFacts {
  /** The directory name under packages/ (`store-sqlite`). */
  readonly directory: string;
  readonly name: string;
  readonly dependencies: ReadonlySet<string>;
  readonly devDependencies: ReadonlySet<string>;
  /** `@teamlog/*` projects the package's tsconfig.json references (its build order). */
  readonly buildReferences: ReadonlySet<string>;
  /** npm packages imported by the shipped code (src/, and the dashboard's client/). */
  readonly sourceImports: ReadonlySet<string>;
  /** npm packages imported by its tests and scripts. */
  readonly testImports: ReadonlySet<string>;
}

const sourceFiles = (directory: string): string[] =>
  !existsSync(directory)
    ? []
    : readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
        return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
      });

/** The npm package a module specifier names, or undefined for a relative path or a Node built-in. */
export const packageOfSpecifier = (specifier: string): string | undefined => {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  if (builtinModules.includes(parts[0] as string)) return undefined;
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
};

/** Every package a file imports: static and dynamic imports, re-exports, `require`, type-only imports. */
export const importsOfText = (text: string): Set<string> => {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return new Set(importedFiles.flatMap(({ fileName }) => packageOfSpecifier(fileName) ?? []));
};

const importsUnder = (directories: readonly string[]): Set<string> =>
  new Set(directories.flatMap(sourceFiles).flatMap((file) => [...importsOfText(readFileSync(file, 'utf8'))]));

const teamlogReferences = (directory: string): Set<string> => {
  const config = ts.readConfigFile(join(directory, 'tsconfig.json'), ts.sys.readFile).config as {
    references?: Array<{ path: string }>;
  };
  return new Set(
    (config.references ?? []).flatMap(({ path }) =>
      path.startsWith('../') ? [`@teamlog/${path.slice(3).replace(/\/$/, '')}`] : [],
    ),
  );
};

export const packageDirectories = (): string[] =>
  readdirSync(packagesRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packagesRoot, entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort();

export const readPackage = (directory: string): PackageFacts => {
  const root = join(packagesRoot, directory);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return {
    directory,
    name: manifest.name,
    dependencies: new Set(Object.keys(manifest.dependencies ?? {})),
    devDependencies: new Set(Object.keys(manifest.devDependencies ?? {})),
    buildReferences: teamlogReferences(root),
    sourceImports: importsUnder([join(root, 'src'), join(root, 'client')]),
    testImports: importsUnder([join(root, 'test'), join(root, 'scripts')]),
  };
};

/** The npm packages the root package.json declares (tests may use them: jest, fast-check, ...). */
export const rootDeclared = (): Set<string> => {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
};

/** The root tsconfig.json's project references, as package directory names. */
export const rootBuildReferences = (): Set<string> => {
  const config = ts.readConfigFile(join(repositoryRoot, 'tsconfig.json'), ts.sys.readFile).config as {
    references?: Array<{ path: string }>;
  };
  return new Set((config.references ?? []).map(({ path }) => path.replace(/^packages\//, '')));
};
