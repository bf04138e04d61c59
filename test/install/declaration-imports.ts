import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import * as ts from 'typescript';

/*
 * A shipped declaration that imports a package whose types the user does not get (a driver
 * without its @types package among the dependencies) compiles only with `skipLibCheck`, and then
 * its types are silently `any`. This finds every such import in the installed declarations.
 */

const declarationFiles = (directory: string): string[] =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });

const isBare = (specifier: string): boolean =>
  !specifier.startsWith('.') &&
  !specifier.startsWith('/') &&
  !specifier.startsWith('node:') &&
  !builtinModules.includes(specifier.split('/')[0] as string);

const typed = new Set(['.d.ts', '.d.cts', '.d.mts', '.ts', '.cts', '.mts']);

/** `file: specifier` for each bare import of a declaration under `roots` that does not resolve to types (Node16 resolution). */
export const untypedDeclarationImports = (roots: readonly string[]): string[] => {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
  };
  return roots.flatMap(declarationFiles).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map(({ fileName }) => fileName)
      .filter(isBare)
      .filter((specifier) => {
        const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
        return resolved === undefined || !typed.has(resolved.extension);
      })
      .map((specifier) => `${file}: ${specifier}`),
  );
};
