import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './package-graph';

/* The machine-readable table of docs/architecture.md: each package's role and allowed @teamlog dependencies. */

export type PackageRole = 'core' | 'adapter' | 'test support' | 'composition';

export interface AllowedDependencies {
  readonly directory: string;
  readonly role: PackageRole;
  readonly allowed: ReadonlySet<string>;
}

export const architectureDoc = join(repositoryRoot, 'docs', 'architecture.md');
const startMarker = '<!-- dependency-table:start -->';
const endMarker = '<!-- dependency-table:end -->';
const roles: readonly PackageRole[] = ['core', 'adapter', 'test support', 'composition'];

const cellNames = (cell: string): string[] =>
  cell.trim() === '—' ? [] : cell.split(',').map((name) => name.trim().replace(/^`|`$/g, ''));

/** Parse the rows between the markers; throws naming the line when a row is malformed. */
export const parseDependencyTable = (markdown: string): AllowedDependencies[] => {
  const start = markdown.indexOf(startMarker);
  const end = markdown.indexOf(endMarker);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`docs/architecture.md: the ${startMarker} ... ${endMarker} block is missing`);
  const lines = markdown
    .slice(start + startMarker.length, end)
    .trim()
    .split('\n')
    .slice(2);
  return lines.map((line) => {
    const cells = line.split('|').slice(1, -1);
    const [name, role, allowed] = cells;
    if (cells.length !== 3 || name === undefined || role === undefined || allowed === undefined)
      throw new Error(`docs/architecture.md: a dependency-table row needs 3 cells: ${line}`);
    const roleName = role.trim() as PackageRole;
    if (!roles.includes(roleName)) throw new Error(`docs/architecture.md: unknown role "${role.trim()}" in: ${line}`);
    return {
      directory: cellNames(name)[0] as string,
      role: roleName,
      allowed: new Set(cellNames(allowed).map((dependency) => `@teamlog/${dependency}`)),
    };
  });
};

export const readDependencyTable = (): AllowedDependencies[] =>
  parseDependencyTable(readFileSync(architectureDoc, 'utf8'));
