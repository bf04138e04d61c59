import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { tempStoreFile } from './temp-store-file';

/* A file its own import creates is written with a rollback journal and is WAL once the import ends (bulkLoadWhenCreated). */

const journalModeOf = (file: string): string => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('journal_mode', { simple: true }) as string;
  } finally {
    db.close();
  }
};

describe('a SQLite store file created for a bulk load', () => {
  it('is written with a rollback journal and is WAL after close, with every event', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const store = SqliteEventStore.open(file, { bulkLoadWhenCreated: true });
      expect(store.database.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(store.database.pragma('synchronous', { simple: true })).toBe(2n);
      const stream = uniqueStream('bulk');
      await store.appendToStream(stream, [newEvent(), newEvent()]);
      expect(existsSync(`${file}-wal`)).toBe(false);
      await store.close();
      expect(journalModeOf(file)).toBe('wal');
      const reopened = SqliteEventStore.open(file);
      expect((await collect(reopened.readStream(stream))).map((event) => event.revision)).toEqual([0n, 1n]);
      await reopened.close();
    } finally {
      cleanup();
    }
  });

  it('an existing file keeps WAL throughout', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      await SqliteEventStore.open(file).close();
      const store = SqliteEventStore.open(file, { bulkLoadWhenCreated: true });
      expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
      await store.appendToStream(uniqueStream('existing'), [newEvent()]);
      expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
      await store.close();
      expect(journalModeOf(file)).toBe('wal');
    } finally {
      cleanup();
    }
  });

  it('the writer thread keeps WAL', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const store = SqliteEventStore.open(file, { bulkLoadWhenCreated: true, writerThread: true });
      expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
      await store.close();
    } finally {
      cleanup();
    }
  });

  it('a file another connection holds at close stays in rollback mode, and the next writer opens it as WAL', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const store = SqliteEventStore.open(file, { bulkLoadWhenCreated: true, busyTimeoutMs: 1 });
      const stream = uniqueStream('held');
      await store.appendToStream(stream, [newEvent()]);
      const reader = new Database(file, { readonly: true, fileMustExist: true });
      reader.exec('BEGIN');
      reader.prepare('SELECT COUNT(*) FROM events').get();
      await store.close();
      reader.exec('COMMIT');
      reader.close();
      expect(journalModeOf(file)).toBe('delete');
      const next = SqliteEventStore.open(file);
      expect(next.database.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(await collect(next.readStream(stream))).toHaveLength(1);
      await next.close();
      expect(journalModeOf(file)).toBe('wal');
    } finally {
      cleanup();
    }
  });
});
