import { SqliteEventStore, eventStoreMigrations } from '@teamlog/store-sqlite';

/** The schema before the hash chains (migration `hash_chain`): the store then writes no digests. */
const unchainedMigrations = eventStoreMigrations.slice(
  0,
  Math.max(
    0,
    eventStoreMigrations.findIndex((migration) => migration.name === 'hash_chain'),
  ),
);

/**
 * A SQLite store for a bench case; `unchained` opens a new file at the schema before the hash
 * chains, so a case run both ways in one bench run shows what the chains cost. `writerThread`:
 * units of appends (imports) are written on a second thread (sqlite-writer-thread.ts). `importAndEnd`:
 * as `teamlog replay` opens a file it creates, with a rollback journal until close (bulkLoadWhenCreated).
 */
export const openBenchSqliteStore = (
  file: string,
  unchained = false,
  writerThread = false,
  importAndEnd = false,
): SqliteEventStore =>
  SqliteEventStore.open(file, {
    ...(unchained ? { migrations: unchainedMigrations } : {}),
    writerThread,
    bulkLoadWhenCreated: importAndEnd,
  });
