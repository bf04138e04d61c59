import Database from 'better-sqlite3';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { StoredRow } from './stored-rows';

/** A fresh store file with the store's own schema (its migrations), closed again: the baseline writes it raw. */
export const createSchemaFile = async (file: string): Promise<void> => {
  const store = SqliteEventStore.open(file);
  await store.close();
};

export interface RawInserter {
  /** Insert one row in its own transaction, committed durably. */
  insert(row: StoredRow): void;
  close(): void;
}

/** Plain better-sqlite3 on the same schema with the store's durability: WAL, synchronous=FULL, BEGIN IMMEDIATE per row. */
export const openRawInserter = (file: string): RawInserter => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const insert = db.prepare('INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertOne = db.transaction((row: StoredRow) => {
    insert.run(row.stream_name, row.revision, row.event_id, row.type, row.data, row.metadata, row.recorded_at);
  });
  return { insert: (row) => insertOne.immediate(row), close: () => db.close() };
};
