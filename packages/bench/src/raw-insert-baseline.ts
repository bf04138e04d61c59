import Database from 'better-sqlite3';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import type { StoredRow } from './stored-rows';

/** A fresh store file with the store's own schema (its migrations), closed again: the baseline writes it raw. */
export const createSchemaFile = async (file: string): Promise<void> => {
  const store = SqliteEventStore.open(file);
  await store.close();
};

export interface RawInserter {
  /** Insert the rows in one transaction, committed durably (one row per transaction is the per-message baseline). */
  insert(rows: readonly StoredRow[]): void;
  close(): void;
}

/** Consecutive groups of `size` rows (the last may be shorter): the transactions the grouped baseline commits. */
export const groupsOf = <T>(rows: readonly T[], size: number): T[][] => {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a group holds at least one row, got ${size}`);
  const groups: T[][] = [];
  for (let start = 0; start < rows.length; start += size) groups.push(rows.slice(start, start + size));
  return groups;
};

/** Plain better-sqlite3 on the same schema with the store's durability: WAL, synchronous=FULL, BEGIN IMMEDIATE per transaction. */
export const openRawInserter = (file: string): RawInserter => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const insert = db.prepare(
    'INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertAll = db.transaction((rows: readonly StoredRow[]) => {
    for (const row of rows)
      insert.run(row.stream_name, row.revision, row.event_id, row.type, row.data, row.metadata, row.recorded_at);
  });
  return { insert: (rows) => insertAll.immediate(rows), close: () => db.close() };
};
