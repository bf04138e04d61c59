import { join } from 'node:path';
import { readDependencyTable } from './dependency-table';
import { repositoryRoot } from './package-graph';
import { reachIntoOtherPackage, testImportsIntoOtherPackages } from './test-imports';

/* Tests reach other packages only through their public entry or a test-support package. */

const testSupport = new Set(
  readDependencyTable()
    .filter((row) => row.role === 'test support')
    .map((row) => row.directory),
);

describe('the imports of the tests', () => {
  it('reach other packages only through their public entry or a test-support package', () => {
    expect(testImportsIntoOtherPackages(testSupport)).toEqual([]);
  });

  it("find a relative path into another package's folder, and a subpath of a product package", () => {
    const file = join(repositoryRoot, 'packages', 'store-postgres', 'test', 'views.int.test.ts');
    expect(reachIntoOtherPackage(file, '../../projections/test/session-log-builder', testSupport)).toBe(
      '../../projections/test/session-log-builder is inside packages/projections: import @teamlog/projections, or move what is shared to a test-support package',
    );
    expect(
      reachIntoOtherPackage(
        join(repositoryRoot, 'test', 'team', 'sends.e2e.test.ts'),
        '../../packages/team/test/team-fixture',
        testSupport,
      ),
    ).toMatch(/is inside packages\/team/);
    expect(reachIntoOtherPackage(file, '@teamlog/dsh/session-log-reader', testSupport)).toBe(
      '@teamlog/dsh/session-log-reader reaches inside @teamlog/dsh: import its public entry @teamlog/dsh',
    );
  });

  it("allow the package's own files, the root test/support, public entries and test-support subpaths", () => {
    const file = join(repositoryRoot, 'packages', 'store-postgres', 'test', 'views.int.test.ts');
    for (const specifier of [
      './fresh-store',
      '../src',
      '../../../test/support/child-process',
      '@teamlog/projections',
      '@teamlog/test-support/session-log-builder',
      'fast-check',
    ]) {
      expect(reachIntoOtherPackage(file, specifier, testSupport)).toBeUndefined();
    }
  });
});
