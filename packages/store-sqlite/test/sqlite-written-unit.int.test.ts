import type { EventId } from '@teamlog/events';
import {
  type ChainBreak,
  type EventStore,
  checkLink,
  finishChainWalk,
  startChainWalk,
  type StagedAppends,
  streamName,
} from '@teamlog/store';
import { SqliteEventStore } from '../src';
import { tempStoreFile } from './temp-store-file';

/*
 * A unit past its memory budget takes the write lock and writes its rows in place, holding its
 * transaction to its end (docs/rules.md#one-pass-import): nothing of it is visible elsewhere before
 * the commit, an abort leaves nothing, and the store's own readers and appends wait for it.
 */

let seq = 0;
const events = (count: number) =>
  Array.from({ length: count }, () => {
    seq += 1;
    return {
      id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}` as EventId,
      type: 'x',
      data: { seq, text: 'é ✓' },
      metadata: { time: seq },
    };
  });

const one = () => events(1)[0] as ReturnType<typeof events>[number];

const stored = async (store: EventStore): Promise<string[]> => {
  const all: string[] = [];
  for await (const event of store.readAll()) all.push(`${event.streamName}@${event.revision}#${event.position.commit}`);
  return all;
};

const chainBreaks = async (store: EventStore): Promise<ChainBreak[]> => {
  const walk = startChainWalk();
  for await (const link of store.readStoredLinks?.() ?? []) checkLink(walk, link);
  return finishChainWalk(walk).breaks;
};

const a = streamName('a');
const b = streamName('b');

/** A refused batch fails its append on this thread; on the writer thread, which learns it later, the next call or the commit. */
const refusal = async (unit: StagedAppends, append: () => Promise<void>): Promise<void> => {
  await append();
  await unit.commit();
};

describe.each([
  ['on the importing thread', false],
  ['by the writer thread', true],
])('a SQLite unit written in place (past its memory budget) %s', (_, writerThread) => {
  let temp: ReturnType<typeof tempStoreFile>;
  let store: SqliteEventStore;
  beforeEach(() => {
    temp = tempStoreFile();
    // Every unit is past a budget of one byte from its first batch.
    store = SqliteEventStore.open(temp.file, { maxBufferedUnitBytes: 1, writerThread });
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  it("holds the file's write lock: another connection sees none of its rows and cannot append until the commit", async () => {
    const other = SqliteEventStore.open(temp.file, { busyTimeoutMs: 0 });
    try {
      const unit = store.stageAppends();
      await unit.append(a, events(3), { expectedRevision: 'no_stream' });
      expect(await other.streamRevision(a)).toBeUndefined();
      await expect(other.appendToStream(b, events(1))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      await unit.commit();
      expect(await other.streamRevision(a)).toBe(2n);
      await other.appendToStream(b, events(1));
      expect(await stored(other)).toEqual(['a@0#1', 'a@1#2', 'a@2#3', 'b@0#4']);
    } finally {
      await other.close();
    }
  });

  it('chains each row as it is written, as appends would, and leaves nothing when aborted', async () => {
    await store.appendToStream(a, events(2));
    const unit = store.stageAppends();
    await unit.append(a, events(2), { expectedRevision: 1n });
    await unit.append(a, events(2));
    await unit.commit();
    const dropped = store.stageAppends();
    await dropped.append(a, events(2), { expectedRevision: 5n });
    await dropped.abort();
    expect(await stored(store)).toEqual(['a@0#1', 'a@1#2', 'a@2#3', 'a@3#4', 'a@4#5', 'a@5#6']);
    expect(await chainBreaks(store)).toEqual([]);
    expect(store.database.inTransaction).toBe(false);
  });

  it("has the store's readers on the same connection read only what is committed, and its appends wait for the unit's end", async () => {
    await store.appendToStream(b, events(1));
    const unit = store.stageAppends();
    await unit.append(a, events(2), { expectedRevision: 'no_stream' });
    await unit.append(b, events(1), { expectedRevision: 0n });
    expect(await stored(store)).toEqual(['b@0#1']);
    expect(await store.streamRevision(a)).toBeUndefined();
    expect(await store.streamRevision(b)).toBe(0n);
    const read: string[] = [];
    for await (const event of store.readStream(b)) read.push(`${event.streamName}@${event.revision}`);
    expect(read).toEqual(['b@0']);
    const appended = store.appendToStream(b, events(1));
    await unit.abort();
    await appended;
    expect(await stored(store)).toEqual(['b@0#1', 'b@1#2']);
  });

  it('keeps the unit stream after stream when a stream is staged again after another', async () => {
    const unit = store.stageAppends();
    await unit.append(a, events(2));
    await unit.append(b, events(1));
    await unit.append(a, events(1));
    const results = await unit.commit();
    expect(await stored(store)).toEqual(['a@0#1', 'a@1#2', 'a@2#3', 'b@0#4']);
    expect(results.map((result) => [result.streamName, result.nextExpectedRevision, result.position.commit])).toEqual([
      [a, 2n, 3n],
      [b, 0n, 4n],
    ]);
    expect(await chainBreaks(store)).toEqual([]);
  });

  it('refuses an id already stored, or staged twice, and writes nothing of the unit', async () => {
    const first = one();
    await store.appendToStream(b, [first]);
    const clashing = store.stageAppends();
    await clashing.append(a, events(1));
    await expect(refusal(clashing, () => clashing.append(a, [{ ...first }]))).rejects.toMatchObject({
      code: 'DuplicateEventId',
      message: expect.stringContaining('already stored'),
    });
    const twice = store.stageAppends();
    const repeated = one();
    await twice.append(a, [repeated]);
    await expect(refusal(twice, () => twice.append(a, [{ ...repeated }]))).rejects.toMatchObject({
      code: 'DuplicateEventId',
      message: expect.stringContaining('staged twice'),
    });
    expect(await stored(store)).toEqual(['b@0#1']);
  });

  it('leaves the connection out of any transaction after a refused id, and writes the next unit', async () => {
    const unit = store.stageAppends();
    const repeated = one();
    await unit.append(a, [...events(2), repeated]);
    await expect(refusal(unit, () => unit.append(b, [...events(2), { ...repeated }]))).rejects.toMatchObject({
      code: 'DuplicateEventId',
      message: expect.stringContaining('staged twice'),
    });
    expect(store.database.inTransaction).toBe(false);
    const next = store.stageAppends();
    await next.append(a, events(2));
    await next.append(b, [repeated]);
    await next.commit();
    expect(await stored(store)).toEqual(['a@0#1', 'a@1#2', 'b@0#3']);
    expect(await chainBreaks(store)).toEqual([]);
  });

  it('refuses a unit whose stream moved from the revision it expects, and writes nothing of it', async () => {
    await store.appendToStream(a, events(1));
    const unit = store.stageAppends();
    await expect(
      refusal(unit, () => unit.append(a, events(1), { expectedRevision: 'no_stream' })),
    ).rejects.toMatchObject({
      code: 'WrongExpectedVersion',
    });
    expect(await stored(store)).toEqual(['a@0#1']);
  });
});
