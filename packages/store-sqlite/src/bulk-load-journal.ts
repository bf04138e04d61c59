import type Database from 'better-sqlite3';

/*
 * The journal of a store file its own import created (SqliteEventStoreOptions.bulkLoadWhenCreated):
 * a rollback journal while the import writes, WAL once it is done, as every store file is.
 */

/**
 * Put the connection on a rollback journal; false (the file stays on WAL) when SQLite cannot
 * switch, which it cannot while another connection has the file open.
 */
export const rollbackJournal = (db: Database.Database): boolean => {
  try {
    return db.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
  } catch {
    return false;
  }
};

/**
 * Turn the file to WAL at the import's end. A connection that opened the file meanwhile keeps
 * SQLite from switching: the file then stays in rollback mode until the next writer's open, which
 * sets WAL as every open to write does.
 */
export const walAfterBulkLoad = (db: Database.Database): void => {
  try {
    db.pragma('journal_mode = WAL');
  } catch {
    // Left to the next writer's open (above).
  }
};
