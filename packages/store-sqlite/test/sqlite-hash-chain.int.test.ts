import Database from 'better-sqlite3';
import type { EventId } from '@teamlog/events';
import {
  type ChainBreak,
  type EventStore,
  type StreamHead,
  type StreamName,
  checkLink,
  eventDigest,
  finishChainWalk,
  startChainWalk,
  streamName,
} from '@teamlog/store';
import { SqliteEventStore, eventStoreMigrations } from '@teamlog/store-sqlite';
import { ChainCursor } from '../src/sqlite-event-chain';
import { tempStoreFile } from './temp-store-file';

/* The SQLite store's hash chains (docs/trust-boundary.md): written with every append, recomputed by the audit. */

const stream = streamName('session-chained');
let nextId = 0;
const event = (n: number) => ({
  id: `0190a000-0000-7000-8000-${String((nextId += 1)).padStart(12, '0')}` as EventId,
  type: 'x/n',
  data: { n, text: 'é ✓' },
  metadata: { time: n },
});

const walk = async (
  store: EventStore,
  kept: readonly StreamHead[] = [],
): Promise<{ breaks: ChainBreak[]; heads: StreamHead[] }> => {
  const state = startChainWalk(kept);
  for await (const link of store.readStoredLinks?.() ?? []) checkLink(state, link);
  return finishChainWalk(state);
};

const codes = (breaks: readonly ChainBreak[]) => breaks.map((found) => [found.code, found.streamName, found.revision]);

/** A file with two streams: three events appended one by one, then two more staged. */
const chainedFile = async (): Promise<{ file: string; cleanup: () => void }> => {
  const temp = tempStoreFile();
  const store = SqliteEventStore.open(temp.file);
  for (const n of [0, 1, 2]) await store.appendToStream(stream, [event(n)]);
  const unit = store.stageAppends();
  unit.append(stream, [event(3), event(4)], { expectedRevision: 2n });
  unit.append(streamName('session-other'), [event(0)], { expectedRevision: 'no_stream' });
  await unit.commit();
  await store.close();
  return temp;
};

const edit = (file: string, sql: string): void => {
  const db = new Database(file);
  db.exec(sql);
  db.close();
};

const reopened = async <T>(file: string, use: (store: SqliteEventStore) => Promise<T>): Promise<T> => {
  const store = SqliteEventStore.openReadOnly(file);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
};

describe('the SQLite hash chain', () => {
  it('chains each event over its predecessor and the exact text stored, in appends and staged units alike', async () => {
    const { file, cleanup } = await chainedFile();
    const db = new Database(file, { readonly: true });
    const rows = db
      .prepare(
        "SELECT type, data, metadata, digest FROM events WHERE stream_name = 'session-chained' ORDER BY revision",
      )
      .all() as Array<{ type: string; data: string; metadata: string | null; digest: string }>;
    db.close();
    let previous: string | undefined;
    for (const row of rows) {
      previous = eventDigest(previous, row);
      expect(row.digest).toBe(previous);
    }
    expect(rows).toHaveLength(5);
    const { breaks, heads } = await reopened(file, (store) => walk(store));
    expect(breaks).toEqual([]);
    expect(heads.map((head) => [head.streamName, head.revision, head.digest])).toEqual([
      ['session-chained', 4n, previous],
      ['session-other', 0n, expect.stringMatching(/^[0-9a-f]{64}$/)],
    ]);
    cleanup();
  });

  it('gives the events of a store written before the chains their chains when it is migrated', async () => {
    const { file, cleanup } = tempStoreFile();
    const older = SqliteEventStore.open(file, {
      migrations: eventStoreMigrations.slice(
        0,
        eventStoreMigrations.findIndex((migration) => migration.name === 'hash_chain'),
      ),
    });
    await older.appendToStream(stream, [event(0), event(1), event(2)]);
    await older.close();
    const store = SqliteEventStore.open(file);
    await store.appendToStream(stream, [event(3)]);
    const { breaks, heads } = await walk(store);
    await store.close();
    expect(breaks).toEqual([]);
    expect(heads.map((head) => head.revision)).toEqual([3n]);
    cleanup();
  });

  it('names the event whose stored bytes were changed in the file', async () => {
    const { file, cleanup } = await chainedFile();
    edit(
      file,
      "UPDATE events SET data = replace(data, '\"n\":1', '\"n\":7') WHERE stream_name = 'session-chained' AND revision = 1",
    );
    expect(codes((await reopened(file, (store) => walk(store))).breaks)).toEqual([['chain-event-changed', stream, 1n]]);
    cleanup();
  });

  it('names the revision of an event removed from the file', async () => {
    const { file, cleanup } = await chainedFile();
    edit(file, "DELETE FROM events WHERE stream_name = 'session-chained' AND revision = 2");
    expect(codes((await reopened(file, (store) => walk(store))).breaks)).toEqual([['chain-event-removed', stream, 2n]]);
    cleanup();
  });

  it('names an event inserted out of turn, digest and all, between two events that chain to each other', async () => {
    const { file, cleanup } = await chainedFile();
    const db = new Database(file);
    const before = db
      .prepare("SELECT digest FROM events WHERE stream_name = 'session-chained' AND revision = 1")
      .get() as { digest: string };
    const forged = { type: 'x/n', data: '{"n":99}', metadata: null };
    db.exec("UPDATE events SET revision = -revision - 1 WHERE stream_name = 'session-chained' AND revision >= 2");
    db.exec("UPDATE events SET revision = -revision WHERE stream_name = 'session-chained' AND revision < 0");
    db.prepare(
      "INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at, digest) VALUES ('session-chained', 2, 'forged', ?, ?, NULL, 0, ?)",
    ).run(forged.type, forged.data, eventDigest(before.digest, forged));
    db.close();
    expect(codes((await reopened(file, (store) => walk(store))).breaks)).toEqual([
      ['chain-event-inserted', stream, 2n],
    ]);
    cleanup();
  });

  it('names an event written into the file without a digest', async () => {
    const { file, cleanup } = await chainedFile();
    edit(
      file,
      "INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES ('session-chained', 5, 'raw', 'x/n', '{}', NULL, 0)",
    );
    expect(codes((await reopened(file, (store) => walk(store))).breaks)).toEqual([
      ['chain-event-unchained', stream, 5n],
    ]);
    cleanup();
  });

  it('compares with heads kept earlier: a rewritten chain, a truncated stream and a missing one', async () => {
    const { file, cleanup } = await chainedFile();
    const kept = (await reopened(file, (store) => walk(store))).heads;
    const db = new Database(file);
    db.function('teamlog_event_digest', (previous: unknown, type: unknown, data: unknown, metadata: unknown) =>
      eventDigest(typeof previous === 'string' ? previous : undefined, {
        type: String(type),
        data: String(data),
        metadata: typeof metadata === 'string' ? metadata : null,
      }),
    );
    // A forger who knows the digest function rewrites an event and every digest after it.
    db.exec(
      "UPDATE events SET data = replace(data, '\"n\":3', '\"n\":8') WHERE stream_name = 'session-chained' AND revision = 3",
    );
    for (const revision of [3, 4]) {
      db.exec(`UPDATE events SET digest = teamlog_event_digest((SELECT p.digest FROM events p WHERE p.stream_name = events.stream_name AND p.revision = events.revision - 1), type, data, metadata)
               WHERE stream_name = 'session-chained' AND revision = ${revision}`);
    }
    db.exec("DELETE FROM events WHERE stream_name = 'session-other'");
    db.close();
    const missing = { streamName: streamName('session-gone') as StreamName, revision: 0n, digest: null };
    const { breaks } = await reopened(file, (store) => walk(store, [...kept, missing]));
    expect(codes(breaks)).toEqual([
      ['chain-digest-differs', stream, 4n],
      ['chain-stream-missing', streamName('session-other'), 0n],
      ['chain-stream-missing', streamName('session-gone'), 0n],
    ]);
    const truncated = await reopened(file, (store) =>
      walk(store, [{ streamName: stream, revision: 9n, digest: null }]),
    );
    expect(codes(truncated.breaks)).toEqual([['chain-stream-truncated', stream, 9n]]);
    cleanup();
  });

  it("continues a stream's chain from the end this connection committed, without reading the predecessor back", async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    const seeks = jest.spyOn(ChainCursor.prototype, 'seek');
    try {
      for (const n of [0, 1, 2, 3]) await store.appendToStream(stream, [event(n)]);
      await Promise.all([4, 5].map((n) => store.appendToStream(stream, [event(n)])));
      // Only the stream's first event was sought (it has no predecessor to read).
      expect(seeks.mock.calls.map(([, revision]) => revision)).toEqual([0n]);
      expect((await walk(store)).breaks).toEqual([]);
    } finally {
      seeks.mockRestore();
      await store.close();
      cleanup();
    }
  });

  it('keeps no chain end from a group commit that was rolled back, so the next append chains after what is stored', async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    try {
      await store.appendToStream(stream, [event(0)]);
      const detach = store.participate({
        checkpoint: undefined,
        prepare: () => {
          throw new Error('the participant refuses the commit');
        },
        committed: () => undefined,
        aborted: () => undefined,
      });
      await expect(store.appendToStream(stream, [event(1)])).rejects.toThrow('the participant refuses the commit');
      detach();
      await store.appendToStream(stream, [event(2)]);
      const { breaks, heads } = await walk(store);
      expect(breaks).toEqual([]);
      expect(heads.map((head) => head.revision)).toEqual([1n]);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('keeps the chain ends of a group redone append by append after a refused event id, and none of the refused append', async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    const other = streamName('session-clash');
    try {
      await store.appendToStream(stream, [event(0)]);
      const shared = event(1);
      const outcomes = await Promise.allSettled([
        store.appendToStream(stream, [event(2)]),
        store.appendToStream(other, [shared]),
        // Planned after the stream's first append of the group, refused by the event id index.
        store.appendToStream(stream, [event(3), shared]),
        store.appendToStream(stream, [event(4)]),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      for (const n of [5, 6]) await store.appendToStream(stream, [event(n)]);
      await store.appendToStream(other, [event(7)]);
      const { breaks, heads } = await walk(store);
      expect(breaks).toEqual([]);
      expect(heads.map((head) => [head.streamName, head.revision])).toEqual([
        [stream, 4n],
        [other, 1n],
      ]);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('keeps no chain end from an append refused for its expected revision', async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    try {
      await store.appendToStream(stream, [event(0), event(1)]);
      const outcomes = await Promise.allSettled([
        store.appendToStream(stream, [event(2)], { expectedRevision: 0n }),
        store.appendToStream(stream, [event(3)], { expectedRevision: 1n }),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
      await store.appendToStream(stream, [event(4)]);
      const { breaks, heads } = await walk(store);
      expect(breaks).toEqual([]);
      expect(heads.map((head) => head.revision)).toEqual([3n]);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it("chains a reopened store's appends after the stream's stored end", async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      for (const n of [0, 1]) {
        const store = SqliteEventStore.open(file);
        await store.appendToStream(stream, [event(2 * n), event(2 * n + 1)]);
        await store.appendToStream(stream, [event(2 * n + 10)]);
        await store.close();
      }
      const { breaks, heads } = await reopened(file, (store) => walk(store));
      expect(breaks).toEqual([]);
      expect(heads.map((head) => head.revision)).toEqual([5n]);
    } finally {
      cleanup();
    }
  });

  it('reads the predecessor back when another connection appended to the stream since, so the chain stays whole', async () => {
    const { file, cleanup } = tempStoreFile();
    const first = SqliteEventStore.open(file);
    const second = SqliteEventStore.open(file);
    try {
      for (const n of [0, 1, 2, 3, 4, 5]) await (n % 2 === 0 ? first : second).appendToStream(stream, [event(n)]);
      await first.appendToStream(stream, [event(6), event(7)]);
      const { breaks, heads } = await walk(first);
      expect(breaks).toEqual([]);
      expect(heads.map((head) => [head.streamName, head.revision])).toEqual([[stream, 7n]]);
    } finally {
      await first.close();
      await second.close();
      cleanup();
    }
  });
});
