import type Database from 'better-sqlite3';
import type { CommittedViewsReader, LoadedViews, ProjectionState } from '@teamlog/projections';
import { viewMigrations } from '../migrations/view-migrations';
import type { Migration } from '../sqlite-migrations';
import { schemaTooNew } from '../sqlite-store-errors';
import type { SqliteEventStore } from '../sqlite-event-store';
import { SqliteViewStore, projectionSchemaTable } from './sqlite-view-store';

export interface CommittedViewsOptions {
  /** The checkpoint name (default `teamlog-views`, the one the CLI and `sqliteProjections` use). */
  readonly projection?: string;
  readonly migrations?: readonly Migration[];
}

/**
 * The views a SQLite file holds, as committed up to their checkpoint, read without writing: a
 * reader (the dashboard) can start from them and fold only the newer events in memory. Undefined
 * when the file has no views, none committed, or views at another schema version (migrating
 * them would be a write). A bad row throws `CorruptViewRow`. The state's held message ids are read
 * from the file on demand, so the connection must stay open while the state is used.
 */
export const readCommittedViews = (
  db: Database.Database,
  file: string,
  options: CommittedViewsOptions = {},
): LoadedViews<ProjectionState> | undefined => {
  const migrations = options.migrations ?? viewMigrations;
  const hasSchema =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(projectionSchemaTable) !==
    undefined;
  if (!hasSchema) return undefined;
  const known = migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
  const row = db.prepare(`SELECT COALESCE(MAX(version), 0) AS version FROM ${projectionSchemaTable}`).get() as {
    version: number | bigint;
  };
  if (Number(row.version) !== known) return undefined;
  // At the known version the store's migrations are a no-op: constructing it writes nothing.
  const loaded = new SqliteViewStore(db, file, {
    migrations,
    ...(options.projection === undefined ? {} : { projection: options.projection }),
  }).loadNow();
  return loaded.checkpoint === undefined ? undefined : loaded;
};

/** The committed-views port over a SQLite store file (what `teamlog serve` starts from). */
export const sqliteCommittedViews = (
  store: SqliteEventStore,
  options: CommittedViewsOptions = {},
): CommittedViewsReader => ({
  read: () => Promise.resolve().then(() => readCommittedViews(store.database, store.file, options)),
});

/**
 * Refuse a file whose views a newer teamlog wrote, before a command that writes (replay) appends
 * anything: its view schema would refuse the views only after the import. A read, no write.
 */
export const assertViewSchemaNotNewer = (
  store: SqliteEventStore,
  migrations: readonly Migration[] = viewMigrations,
): void => {
  const db = store.database;
  const hasSchema =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(projectionSchemaTable) !==
    undefined;
  if (!hasSchema) return;
  const known = migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
  const row = db.prepare(`SELECT COALESCE(MAX(version), 0) AS version FROM ${projectionSchemaTable}`).get() as {
    version: number | bigint;
  };
  if (Number(row.version) > known) throw schemaTooNew(store.file, Number(row.version), known);
};
