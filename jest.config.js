/** Test tiers are named by file: *.unit.test.ts, *.int.test.ts, *.e2e.test.ts. */
const shared = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/packages', '<rootDir>/test'],
  modulePathIgnorePatterns: ['<rootDir>/packages/[^/]+/dist/'],
  moduleNameMapper: {
    '^@teamlog/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@teamlog/([a-z-]+)/(.+)$': '<rootDir>/packages/$1/src/$2',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
};

const tier = (name) => ({ ...shared, displayName: name, testMatch: [`**/*.${name}.test.ts`] });

module.exports = {
  projects: [tier('unit'), tier('int'), tier('e2e')],
  // Named steps (test/support/jest-global-setup.ts): one PostgreSQL server for the run, and so on.
  globalSetup: '<rootDir>/test/support/jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/jest-global-teardown.ts',
  testTimeout: 30000,
};
