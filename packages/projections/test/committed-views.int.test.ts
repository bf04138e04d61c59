import { SqliteEventStore } from '@teamlog/store-sqlite';
import { TeamlogProjections, TeamlogViews, readCommittedViews } from '@teamlog/projections';
import { importFixtures, syntheticFixtures } from './fixture-import';
import { tempFile } from './temp-file';

const projectionTables = (store: SqliteEventStore): unknown[] =>
  store.database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'projection%' ORDER BY name").all();

describe('readCommittedViews', () => {
  it('given a file without views, when read, then there are none and no table is created', async () => {
    const { file, cleanup } = tempFile();
    const store = SqliteEventStore.open(file);
    try {
      await importFixtures(store, syntheticFixtures);
      expect(readCommittedViews(store.database, file)).toBeUndefined();
      expect(projectionTables(store)).toEqual([]);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('given committed views, when read, then they hold the committed state at its checkpoint', async () => {
    const { file, cleanup } = tempFile();
    const store = SqliteEventStore.open(file);
    try {
      await importFixtures(store, syntheticFixtures);
      const projections = TeamlogProjections.sqlite(store);
      await projections.catchUp();
      const loaded = readCommittedViews(store.database, file);
      expect(loaded?.checkpoint).toEqual(projections.checkpoint);
      expect(new TeamlogViews(loaded!.state).replay()).toEqual(projections.views().replay());
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('given views at a schema version this code does not know, when read, then there are none (no migration, no SchemaTooNew)', async () => {
    const { file, cleanup } = tempFile();
    const store = SqliteEventStore.open(file);
    try {
      await importFixtures(store, syntheticFixtures);
      await TeamlogProjections.sqlite(store).catchUp();
      store.database.prepare("INSERT INTO projection_schema_migrations (version, name, applied_at) VALUES (99, 'from_the_future', 0)").run();
      expect(readCommittedViews(store.database, file)).toBeUndefined();
    } finally {
      await store.close();
      cleanup();
    }
  });
});
