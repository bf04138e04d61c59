import { describeEventStoreConformance } from '@teamlog/store-conformance';
import { openPostgresStore } from '@teamlog/store-postgres';
import { databaseForFile } from './test-database';

describe("PostgresEventStore on the run's PostgreSQL server", () => {
  const database = databaseForFile('conformance');
  describeEventStoreConformance('PostgresEventStore', async () => {
    const store = await openPostgresStore(database().url);
    return { store, dispose: () => store.close() };
  });
});
