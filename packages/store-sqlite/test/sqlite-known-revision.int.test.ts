import Database from 'better-sqlite3';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { newEvent, uniqueStream } from '@teamlog/store-conformance';
import { tempStoreFile } from './temp-store-file';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SqliteEventStore known revisions', () => {
  it('forgets its heads once another process has committed, from the next turn of the event loop at the latest', async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    try {
      const stream = uniqueStream('foreign');
      await store.appendToStream(stream, [newEvent()]);
      expect(store.knownRevision(stream)).toEqual({ revision: 0n });
      // A plain connection stands for another process: it commits without this process's stores knowing.
      const other = new Database(file);
      other
        .prepare(
          "INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES (?, 1, '0190a000-0000-7000-8000-0000000000ff', 'x/y', '{}', NULL, 0)",
        )
        .run(stream);
      other.close();
      await nextTurn();
      expect(store.knownRevision(stream)).toBeUndefined();
      expect(await store.streamRevision(stream)).toBe(1n);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('forgets its heads in the same turn when another store of this process commits to the file', async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    const other = SqliteEventStore.open(file);
    try {
      const stream = uniqueStream('local');
      await store.appendToStream(stream, [newEvent()]);
      await nextTurn();
      // The other store's commit is requested first, so it runs in the turn this store's look at data_version is still good for.
      const appended = other.appendToStream(stream, [newEvent()], { expectedRevision: 0n });
      expect(store.knownRevision(stream)).toEqual({ revision: 0n });
      await appended;
      expect(store.knownRevision(stream)).toBeUndefined();
    } finally {
      await other.close();
      await store.close();
      cleanup();
    }
  });

  it('answers from the look at data_version its own group commit made for the rest of that turn, without looking again', async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    // Every prepared statement shares one prototype: count the reads of data_version made through it.
    const statementPrototype = Object.getPrototypeOf(store.database.prepare('SELECT 1')) as {
      get: (...args: unknown[]) => unknown;
    };
    const get = jest.spyOn(statementPrototype, 'get');
    const versionReads = () =>
      get.mock.contexts.filter((statement) => (statement as { source: string }).source === 'PRAGMA data_version')
        .length;
    try {
      const stream = uniqueStream('own');
      await store.appendToStream(stream, [newEvent()]);
      await nextTurn();
      const before = versionReads();
      // Resumed in the commit's turn: the head is the one the commit left, and data_version is not read again.
      await store.appendToStream(stream, [newEvent()], { expectedRevision: 0n });
      const afterCommit = versionReads();
      expect(store.knownRevision(stream)).toEqual({ revision: 1n });
      expect(versionReads()).toBe(afterCommit);
      // The commit itself looked once, under the write lock.
      expect(afterCommit - before).toBe(1);
    } finally {
      get.mockRestore();
      await store.close();
      cleanup();
    }
  });
});
