import { createTestDatabase } from '@teamlog/postgres-testing';
import { type OpenPostgresStoreOptions, type PostgresEventStore, openPostgresStore } from '@teamlog/store-postgres';
import { testPostgresUrl } from '../../../test/support/postgres-server';

/** A database of its own on the run's server (views are per database), a store on it; closed and dropped afterwards. */
export const withFreshStore = async <T>(
  label: string,
  run: (store: PostgresEventStore, url: string) => Promise<T>,
  options: OpenPostgresStoreOptions = {},
): Promise<T> => {
  const database = await createTestDatabase(testPostgresUrl(), label);
  try {
    const store = await openPostgresStore(database.url, options);
    try {
      return await run(store, database.url);
    } finally {
      await store.close();
    }
  } finally {
    await database.drop();
  }
};
