import { v4 as uuidv4 } from 'uuid';
import type { EventId } from '@teamlog/events';
import { type EventToAppend, type RecordedEvent, streamName } from '@teamlog/store';
import {
  type AppendRetry,
  EventStoreDbEventStore,
  type EventStoreDbEventStoreOptions,
  type SubscriptionDrop,
} from '@teamlog/store-eventstoredb';
import { FakeEventStoreDbClient } from './fake-eventstoredb-client';

/*
 * The adapter's own logic (exclusive positions, read-back, retries, resubscription) against a
 * fake server. These tests say nothing about a real server; the conformance run does.
 */

const event = (type = 'test/happened', data: EventToAppend['data'] = {}): EventToAppend => ({
  id: uuidv4() as EventId,
  type,
  data,
  metadata: { time: 0 },
});

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

const setup = (options: EventStoreDbEventStoreOptions = {}) => {
  const client = new FakeEventStoreDbClient();
  const waits: number[] = [];
  const retries: AppendRetry[] = [];
  const drops: SubscriptionDrop[] = [];
  const store = new EventStoreDbEventStore(client, {
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    onAppendRetry: (retry) => retries.push(retry),
    onSubscriptionDropped: (drop) => drops.push(drop),
    ...options,
  });
  return { client, store, waits, retries, drops };
};

const first = async (
  subscription: AsyncIterable<RecordedEvent>,
  count: number,
  stream?: string,
): Promise<RecordedEvent[]> => {
  const seen: RecordedEvent[] = [];
  for await (const recorded of subscription) {
    if (stream !== undefined && recorded.streamName !== stream) continue;
    seen.push(recorded);
    if (seen.length === count) break;
  }
  return seen;
};

describe('EventStoreDbEventStore over a fake client', () => {
  describe('appending', () => {
    it('returns the position read back from the stream, not the one in the append reply', async () => {
      const { client, store } = setup();
      const stream = streamName('session-a');
      const result = await store.appendToStream(stream, [event(), event()]);
      const stored = client.streamRecords(stream)[1];
      expect(result).toEqual({ nextExpectedRevision: 1n, position: stored?.position });
    });

    it('sends the writer ids, so a retry of the same batch gets the original result', async () => {
      const { client, store } = setup();
      const stream = streamName('session-a');
      const batch = [event(), event()];
      const original = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      await store.appendToStream(stream, [event()]);
      expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toEqual(original);
      expect(client.streamRecords(stream).map((record) => record.id)).toEqual([
        ...batch.map((e) => e.id),
        expect.any(String),
      ]);
    });

    it('after a reply lost with the write done, reads back and returns the stored result without writing twice', async () => {
      const { client, store, retries } = setup();
      const stream = streamName('session-a');
      client.faults.push('unavailable-after-write');
      const batch = [event(), event()];
      const result = await store.appendToStream(stream, batch, { expectedRevision: 'any' });
      expect(client.streamRecords(stream)).toHaveLength(2);
      expect(result).toEqual({ nextExpectedRevision: 1n, position: client.streamRecords(stream)[1]?.position });
      expect(client.calls.append).toBe(1);
      expect(retries).toEqual([]);
    });

    it('after a failure with nothing written, retries the same ids with backoff and writes once', async () => {
      const { client, store, retries, waits } = setup();
      const stream = streamName('session-a');
      client.faults.push('unavailable-before-write', 'cancelled-before-write');
      const batch = [event()];
      const result = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(0n);
      expect(client.streamRecords(stream).map((record) => record.id)).toEqual([batch[0]?.id]);
      expect(retries.map((retry) => [retry.attempt, retry.outcome])).toEqual([
        [1, 'unknown'],
        [2, 'unknown'],
      ]);
      expect(waits).toEqual([75, 150]);
    });

    it('retries an append that reached a follower (NotLeader) without reading back', async () => {
      const { client, store, retries } = setup();
      client.faults.push('not-leader');
      const reads = client.calls.readStream;
      await store.appendToStream(streamName('session-a'), [event()]);
      expect(retries.map((retry) => retry.outcome)).toEqual(['not-written']);
      // The chain's head before each attempt and the confirming read after the successful one: no batch lookup.
      expect(client.calls.readStream - reads).toBe(3);
    });

    it('gives up with AppendOutcomeUnknown after the allowed attempts, naming stream and first id', async () => {
      const { client, store } = setup({ appendRetry: { initialDelayMs: 1, maxDelayMs: 1, maxAttempts: 3 } });
      client.faults.push('unavailable-before-write', 'unavailable-before-write', 'unavailable-before-write');
      const batch = [event()];
      const error = await store.appendToStream(streamName('session-a'), batch).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'AppendOutcomeUnknown' });
      expect((error as Error).message).toContain(
        `stream session-a: append of 1 event(s) starting with ${batch[0]?.id} has an unknown outcome after 3 attempt(s)`,
      );
      expect(client.streamRecords('session-a')).toHaveLength(0);
    });

    it('maps a refused expected revision to WrongExpectedVersion when the batch is not stored', async () => {
      const { store } = setup();
      const stream = streamName('session-a');
      await store.appendToStream(stream, [event(), event()]);
      const error = await store.appendToStream(stream, [event()], { expectedRevision: 0n }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'WrongExpectedVersion' });
      expect(error).toMatchObject({ fault: { expected: 0n, actual: 1n } });
    });

    it('treats a refusal reported as success: false (throwOnAppendFailure=false) like a thrown one', async () => {
      const { client, store } = setup();
      client.throwOnAppendFailure = false;
      const stream = streamName('session-a');
      const batch = [event()];
      const original = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      const error = await store
        .appendToStream(stream, [event()], { expectedRevision: 'no_stream' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'WrongExpectedVersion' });
      expect(error).toMatchObject({ fault: { expected: 'no_stream', actual: 0n } });
      const missing = await store
        .appendToStream(streamName('session-b'), [event()], { expectedRevision: 'stream_exists' })
        .catch((e: unknown) => e);
      expect(missing).toMatchObject({ fault: { expected: 'stream_exists', actual: 'no_stream' } });
      expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toEqual(original);
    });

    it('refuses a batch that only partly repeats stored ids with DuplicateEventId', async () => {
      const { client, store } = setup();
      const stream = streamName('session-a');
      const stored = event();
      await store.appendToStream(stream, [stored]);
      const error = await store.appendToStream(stream, [stored, event()]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'DuplicateEventId' });
      expect(client.streamRecords(stream)).toHaveLength(1);
    });

    it('refuses an append above the size limit before sending anything', async () => {
      const { client, store } = setup({ maxAppendBytes: 1_000 });
      const error = await store
        .appendToStream(streamName('session-a'), [event('big', { blob: 'x'.repeat(2_000) })])
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'AppendTooLarge' });
      expect(client.calls.append).toBe(0);
    });

    it('checks the expectation of an empty append without writing', async () => {
      const { client, store } = setup();
      const stream = streamName('session-a');
      await expect(store.appendToStream(stream, [], { expectedRevision: 'stream_exists' })).rejects.toMatchObject({
        code: 'WrongExpectedVersion',
      });
      const written = await store.appendToStream(stream, [event()]);
      expect(await store.appendToStream(stream, [], { expectedRevision: 0n })).toEqual(written);
      expect(client.calls.append).toBe(1);
    });
  });

  describe('staged appends (not atomic on EventStoreDB, and how)', () => {
    it('writes nothing before commit, then each stream in appends that fit the server limit, in staging order', async () => {
      const { client, store } = setup({ maxAppendBytes: 1_000 });
      const header = streamName('sessionheader-a');
      const body = streamName('session-a');
      const unit = store.stageAppends();
      await unit.append(header, [event('h')], { expectedRevision: 'no_stream' });
      await unit.append(
        body,
        Array.from({ length: 6 }, () => event('b', { blob: 'x'.repeat(300) })),
        { expectedRevision: 'no_stream' },
      );
      expect(client.calls.append).toBe(0);
      const results = await unit.commit();
      expect(results.map((result) => [result.streamName, result.nextExpectedRevision, result.events])).toEqual([
        [header, 0n, 1],
        [body, 5n, 6],
      ]);
      expect(client.streamRecords(body)).toHaveLength(6);
      expect(client.calls.append).toBeGreaterThan(2);
    });

    it('checks every expectation and every event size before writing, so a conflict or an oversized event writes nothing', async () => {
      const { client, store } = setup({ maxAppendBytes: 1_000 });
      const header = streamName('sessionheader-b');
      const body = streamName('session-b');
      await store.appendToStream(body, [event()]);
      const conflicting = store.stageAppends();
      await conflicting.append(header, [event()], { expectedRevision: 'no_stream' });
      await conflicting.append(body, [event()], { expectedRevision: 'no_stream' });
      await expect(conflicting.commit()).rejects.toMatchObject({ code: 'WrongExpectedVersion' });
      const oversized = store.stageAppends();
      await oversized.append(header, [event()], { expectedRevision: 'no_stream' });
      await oversized.append(streamName('session-c'), [event('big', { blob: 'x'.repeat(2_000) })], {
        expectedRevision: 'no_stream',
      });
      await expect(oversized.commit()).rejects.toMatchObject({ code: 'AppendTooLarge' });
      expect(client.streamRecords(header)).toHaveLength(0);
      expect(client.calls.append).toBe(1);
    });

    it('refuses a unit larger than it may keep in memory while staging, before anything is sent', async () => {
      const { client, store } = setup({ maxStagedBytes: 2_000 });
      const unit = store.stageAppends();
      await unit.append(streamName('session-d'), [event('b', { blob: 'x'.repeat(1_500) })]);
      await expect(
        unit.append(streamName('session-d'), [event('b', { blob: 'x'.repeat(1_500) })]),
      ).rejects.toMatchObject({ code: 'StagedAppendsTooLarge' });
      expect(client.calls.append).toBe(0);
    });
  });

  describe('reading', () => {
    it('reads a stream with the port options and reports a missing one as StreamNotFound', async () => {
      const { store } = setup();
      const stream = streamName('session-a');
      await store.appendToStream(
        stream,
        Array.from({ length: 5 }, (_, n) => event('n', { n })),
      );
      expect((await collect(store.readStream(stream, { direction: 'backwards' }))).map((e) => e.revision)).toEqual([
        4n,
        3n,
        2n,
        1n,
        0n,
      ]);
      expect((await collect(store.readStream(stream, { from: 1n, maxCount: 2 }))).map((e) => e.revision)).toEqual([
        1n,
        2n,
      ]);
      await expect(collect(store.readStream(streamName('session-missing')))).rejects.toMatchObject({
        code: 'StreamNotFound',
      });
    });

    it('reads $all strictly after a position although the client reads from it inclusively', async () => {
      const { store } = setup();
      const a = await store.appendToStream(streamName('a'), [event('x/1')]);
      await store.appendToStream(streamName('b'), [event('x/2')]);
      expect((await collect(store.readAll({ fromPosition: a.position }))).map((e) => e.type)).toEqual(['x/2']);
    });

    it('leaves system events out of $all and still returns maxCount events across pages', async () => {
      const { client, store } = setup({ readPageSize: 3 });
      client.appendSystemRecord('$stats-node', '$statsCollected');
      await store.appendToStream(streamName('a'), [event('x/1')]);
      client.appendSystemRecord('$$a', '$metadata');
      client.appendSystemRecord('$projections-x', 'ProjectionUpdated');
      client.appendSystemRecord('$stats-node', '$statsCollected');
      await store.appendToStream(streamName('a'), [event('x/2'), event('x/3')]);
      client.appendSystemRecord('$stats-node', '$statsCollected');
      await store.appendToStream(streamName('b'), [event('x/4')]);
      expect((await collect(store.readAll())).map((e) => e.type)).toEqual(['x/1', 'x/2', 'x/3', 'x/4']);
      expect((await collect(store.readAll({ maxCount: 3 }))).map((e) => e.type)).toEqual(['x/1', 'x/2', 'x/3']);
    });

    it('reports the last revision of a stream, or nothing for a missing one', async () => {
      const { store } = setup();
      expect(await store.streamRevision(streamName('session-a'))).toBeUndefined();
      await store.appendToStream(streamName('session-a'), [event(), event()]);
      expect(await store.streamRevision(streamName('session-a'))).toBe(1n);
    });
  });

  describe('subscribing to $all', () => {
    it('delivers past and new events without system events', async () => {
      const { client, store } = setup();
      await store.appendToStream(streamName('a'), [event('s/past')]);
      client.appendSystemRecord('$projections-x', 'ProjectionUpdated');
      const subscription = store.subscribeToAll();
      const seen = first(subscription, 2);
      await store.appendToStream(streamName('a'), [event('s/live')]);
      expect((await seen).map((e) => e.type)).toEqual(['s/past', 's/live']);
      await subscription.unsubscribe();
    });

    it('resubscribes after a dropped connection from the last delivered position, losing and repeating nothing', async () => {
      const { client, store, drops } = setup();
      const stream = streamName('a');
      await store.appendToStream(stream, [event('s/1'), event('s/2')]);
      const subscription = store.subscribeToAll();
      const iterator = subscription[Symbol.asyncIterator]();
      const one = await iterator.next();
      const two = await iterator.next();
      expect([one.value?.type, two.value?.type]).toEqual(['s/1', 's/2']);
      const waiting = iterator.next();
      client.dropSubscriptions();
      await store.appendToStream(stream, [event('s/3')]);
      expect((await waiting).value?.type).toBe('s/3');
      expect(drops).toHaveLength(1);
      expect(drops[0]?.resumeAfter).toEqual(two.value?.position);
      expect(client.subscribeStarts[1]).toEqual(two.value?.position);
      await subscription.unsubscribe();
    });

    it('pins "end" to the head of $all when subscribing, so a drop before the first event loses nothing', async () => {
      const { client, store } = setup();
      await store.appendToStream(streamName('a'), [event('s/old')]);
      const subscription = store.subscribeToAll({ fromPosition: 'end' });
      const iterator = subscription[Symbol.asyncIterator]();
      const waiting = iterator.next();
      await new Promise((resolve) => setImmediate(resolve));
      client.dropSubscriptions();
      await store.appendToStream(streamName('a'), [event('s/new')]);
      expect((await waiting).value?.type).toBe('s/new');
      await subscription.unsubscribe();
    });

    it('resumes strictly after a checkpoint position', async () => {
      const { store } = setup();
      const mark = await store.appendToStream(streamName('a'), [event('s/1'), event('s/2')]);
      await store.appendToStream(streamName('a'), [event('s/3')]);
      const subscription = store.subscribeToAll({ fromPosition: mark.position });
      expect((await first(subscription, 1)).map((e) => e.type)).toEqual(['s/3']);
      await subscription.unsubscribe();
    });

    it('gives up with SubscriptionDropped after the allowed drops in a row', async () => {
      const { client, store } = setup({ resubscribe: { initialDelayMs: 1, maxDelayMs: 1, maxAttempts: 2 } });
      const subscription = store.subscribeToAll();
      const waiting = subscription[Symbol.asyncIterator]().next();
      for (let drop = 0; drop < 2; drop += 1) {
        await new Promise((resolve) => setImmediate(resolve));
        client.dropSubscriptions();
      }
      await expect(waiting).rejects.toMatchObject({ code: 'SubscriptionDropped' });
    });

    it('ends iteration when unsubscribed while waiting for events', async () => {
      const { store } = setup();
      const subscription = store.subscribeToAll();
      const waiting = subscription[Symbol.asyncIterator]().next();
      await new Promise((resolve) => setImmediate(resolve));
      await subscription.unsubscribe();
      expect((await waiting).done).toBe(true);
    });
  });

  it('closes subscriptions and the client, then refuses calls with StoreClosed', async () => {
    const { client, store } = setup();
    const subscription = store.subscribeToAll();
    const waiting = subscription[Symbol.asyncIterator]().next();
    await store.close();
    expect((await waiting).done).toBe(true);
    expect(client.disposed).toBe(true);
    await expect(store.appendToStream(streamName('a'), [event()])).rejects.toMatchObject({ code: 'StoreClosed' });
  });
});
