import { createTestDatabase, type TestDatabase } from '@teamlog/postgres-testing';
import { type OpenPostgresStoreOptions, type PostgresEventStore, openPostgresStore } from '@teamlog/store-postgres';
import { testPostgresUrl } from '../../../test/support/postgres-server';

/** A database of its own for this test file on the run's server, dropped after the file. Call at the top of a describe. */
export const databaseForFile = (label: string): (() => TestDatabase) => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(testPostgresUrl(), label);
  });
  afterAll(async () => {
    await database?.drop();
  });
  return () => {
    if (database === undefined) throw new Error('the test database is created in beforeAll');
    return database;
  };
};

/** Open a store on the database, run, close it whatever happens. */
export const withStore = async <T>(
  url: string,
  run: (store: PostgresEventStore) => Promise<T>,
  options: OpenPostgresStoreOptions = {},
): Promise<T> => {
  const store = await openPostgresStore(url, options);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
};
