import { readDependencyTable, parseDependencyTable } from './dependency-table';
import {
  type PackageFacts,
  importsOfText,
  packageDirectories,
  readPackage,
  rootBuildReferences,
  rootDeclared,
} from './package-graph';

/*
 * docs/architecture.md's dependency table against the packages as they are: what each
 * package.json declares, what its tsconfig builds against, and what its code imports.
 */

/** `@types/pg` types `pg`; `@types/scope__name` types `@scope/name`. */
const importedForTypes = (typesPackage: string): string => {
  const name = typesPackage.slice('@types/'.length);
  return name.includes('__') ? `@${name.replace('__', '/')}` : name;
};

const adapters = ['@teamlog/store-sqlite', '@teamlog/store-postgres', '@teamlog/store-eventstoredb'];
const drivers = ['better-sqlite3', 'pg', '@eventstore/db-client'];

const table = readDependencyTable();
const packages = packageDirectories().map(readPackage);
const sorted = (names: Iterable<string>): string[] => [...names].sort();
const teamlogOnly = (names: Iterable<string>): string[] =>
  sorted([...names].filter((name) => name.startsWith('@teamlog/')));
const rowOf = (facts: PackageFacts) => table.find((row) => row.directory === facts.directory);

describe('docs/architecture.md against the packages', () => {
  it('lists every package under packages/, once, and nothing else', () => {
    expect(sorted(table.map((row) => row.directory))).toEqual(packageDirectories());
  });

  it('is built in full by the root tsconfig.json', () => {
    expect(sorted(rootBuildReferences())).toEqual(packageDirectories());
  });

  describe.each(packages.map((facts) => [facts.directory, facts] as const))('%s', (_directory, facts) => {
    const allowed = (): string[] => sorted(rowOf(facts)?.allowed ?? []);

    it('declares exactly the @teamlog dependencies the table allows', () => {
      expect(teamlogOnly(facts.dependencies)).toEqual(allowed());
    });

    it('imports, in its source, exactly the @teamlog packages it declares', () => {
      expect(teamlogOnly(facts.sourceImports)).toEqual(teamlogOnly(facts.dependencies));
    });

    it('declares every npm package its source imports, and imports every one it declares (an @types package: the one it imports)', () => {
      const others = (names: Iterable<string>): string[] =>
        sorted([...names].filter((name) => !name.startsWith('@teamlog/')));
      const imported = (name: string): string => (name.startsWith('@types/') ? importedForTypes(name) : name);
      expect(others(facts.sourceImports)).toEqual(others(new Set([...facts.dependencies].map(imported))));
    });

    it('builds against the packages it depends on (tsconfig references), and no others', () => {
      expect(sorted(facts.buildReferences)).toEqual(teamlogOnly(facts.dependencies));
    });

    it('uses every devDependency in its tests or scripts, and its tests import only what is declared here or at the root', () => {
      expect(sorted([...facts.devDependencies].filter((name) => !facts.testImports.has(name)))).toEqual([]);
      const declared = new Set([...facts.dependencies, ...facts.devDependencies, ...rootDeclared(), facts.name]);
      expect(sorted([...facts.testImports].filter((name) => !declared.has(name)))).toEqual([]);
    });

    if (rowOf(facts)?.role === 'core') {
      it('imports no store adapter and no database driver', () => {
        const forbidden = [...adapters, ...drivers];
        expect(
          sorted([...facts.dependencies, ...facts.sourceImports].filter((name) => forbidden.includes(name))),
        ).toEqual([]);
      });
    }
  });
});

describe('the architecture checks themselves', () => {
  it('find static, dynamic, type-only and require imports, by package, without built-ins or relative paths', () => {
    const text = [
      "import { a } from '@teamlog/events';",
      "import type { B } from '@modelcontextprotocol/sdk/server/index.js';",
      "export * from './local';",
      "const pg = require('pg');",
      "const later = import('better-sqlite3');",
      "import { join } from 'path';",
      "import { spawn } from 'node:child_process';",
      "// a comment that says from 'fake-package' is not an import",
    ].join('\n');
    expect(sorted(importsOfText(text))).toEqual([
      '@modelcontextprotocol/sdk',
      '@teamlog/events',
      'better-sqlite3',
      'pg',
    ]);
  });

  it('read the table, and refuse a row with an unknown role', () => {
    const doc = (row: string): string =>
      `<!-- dependency-table:start -->\n| package | role | allowed |\n|---|---|---|\n${row}\n<!-- dependency-table:end -->`;
    expect(parseDependencyTable(doc('| `team` | core | `events`, `domain` |'))).toEqual([
      { directory: 'team', role: 'core', allowed: new Set(['@teamlog/events', '@teamlog/domain']) },
    ]);
    expect(() => parseDependencyTable(doc('| `team` | kernel | — |'))).toThrow('unknown role "kernel"');
  });
});
