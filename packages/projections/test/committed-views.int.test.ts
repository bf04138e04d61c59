import { SqliteEventStore, sqliteProjections, readCommittedViews } from '@teamlog/store-sqlite';
import { TeamlogViews } from '@teamlog/projections';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { tempFile } from './temp-file';

const projectionTables = (store: SqliteEventStore): unknown[] =>
  store.database
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'projection%' ORDER BY name")
    .all();

/** A real SQLite file holding the synthetic fixtures (no views yet). */
const withSyntheticStore = async (run: (store: SqliteEventStore, file: string) => Promise<void>): Promise<void> => {
  const { file, cleanup } = tempFile();
  const store = SqliteEventStore.open(file);
  try {
    await importFixtures(store, syntheticFixtures);
    await run(store, file);
  } finally {
    await store.close();
    cleanup();
  }
};

describe('readCommittedViews', () => {
  it('given a file without views, when read, then there are none and no table is created', () =>
    withSyntheticStore(async (store, file) => {
      expect(readCommittedViews(store.database, file)).toBeUndefined();
      expect(projectionTables(store)).toEqual([]);
    }));

  it('given committed views, when read, then they hold the committed state at its checkpoint', () =>
    withSyntheticStore(async (store, file) => {
      const projections = await sqliteProjections(store);
      await projections.catchUp();
      const loaded = readCommittedViews(store.database, file);
      expect(loaded?.checkpoint).toEqual(projections.checkpoint);
      expect(loaded === undefined ? undefined : new TeamlogViews(loaded.state).replay()).toEqual(
        projections.views().replay(),
      );
    }));

  it('given views at a schema version this code does not know, when read, then there are none (no migration, no SchemaTooNew)', () =>
    withSyntheticStore(async (store, file) => {
      await (await sqliteProjections(store)).catchUp();
      store.database
        .prepare(
          "INSERT INTO projection_schema_migrations (version, name, applied_at) VALUES (99, 'from_the_future', 0)",
        )
        .run();
      expect(readCommittedViews(store.database, file)).toBeUndefined();
    }));
});
