import { v4 as uuidv4 } from 'uuid';
import type { EventId, JsonValue } from '@teamlog/events';
import {
  type ChainBreak,
  type EventToAppend,
  type StreamHead,
  checkLink,
  eventDigest,
  finishChainWalk,
  startChainWalk,
  streamName,
} from '@teamlog/store';
import { describeEventStoreConformance } from '@teamlog/store-conformance';
import {
  EventStoreDbEventStore,
  chainDigestKey,
  encodeMetadata,
  wrappedMetadataKey,
} from '@teamlog/store-eventstoredb';
import { FakeEventStoreDbClient } from './fake-eventstoredb-client';

/*
 * The hash chain in EventStoreDB metadata, with the client mocked at the adapter's seam (the
 * EventStoreDbClient interface). Nothing here says the real server keeps the metadata as sent:
 * the EVENTSTORE_URL run (eventstoredb-event-store.int.test.ts) does.
 */

const event = (data: JsonValue = { n: 1 }, metadata?: JsonValue): EventToAppend => ({
  id: uuidv4() as EventId,
  type: 'test/happened',
  data,
  ...(metadata === undefined ? {} : { metadata }),
});

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

const setup = () => {
  const client = new FakeEventStoreDbClient();
  const store = new EventStoreDbEventStore(client, { random: () => 0.5, sleep: async () => undefined });
  return { client, store };
};

const audit = async (store: EventStoreDbEventStore, kept: readonly StreamHead[] = []) => {
  const walk = startChainWalk(kept);
  for await (const link of store.readStoredLinks()) checkLink(walk, link);
  return finishChainWalk(walk);
};

const codes = (breaks: readonly ChainBreak[]) => breaks.map((found) => [found.code, found.streamName, found.revision]);

/** The digest an event's stored metadata carries, as hex. */
const digestIn = (metadata: unknown): string =>
  Buffer.from((metadata as Record<string, string>)[chainDigestKey] as string, 'base64url').toString('hex');

describe('the hash chain in EventStoreDB metadata', () => {
  it('writes each event with the eventDigest of its JSON text chained over its predecessor, in the same append', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    const first = event({ text: 'héllo' }, { time: 1, writerSessionId: 'a' });
    const second = event(7, { time: 2 });
    await store.appendToStream(stream, [first]);
    await store.appendToStream(stream, [second]);
    const [one, two] = client.streamRecords(stream);
    const expectedOne = eventDigest(undefined, {
      type: first.type,
      data: JSON.stringify(first.data),
      metadata: JSON.stringify(encodeMetadata(first.metadata)),
    });
    const expectedTwo = eventDigest(expectedOne, { type: second.type, data: '7', metadata: '{"time":2}' });
    expect(digestIn(one?.metadata)).toBe(expectedOne);
    expect(digestIn(two?.metadata)).toBe(expectedTwo);
    expect(client.calls.append).toBe(2);
  });

  it('reads every kind of metadata back as it was appended, without the digest', async () => {
    const { store } = setup();
    const stream = streamName('session-a');
    const metadatas: Array<JsonValue | undefined> = [
      undefined,
      {},
      { time: 3, correlationId: 'c' },
      [1, 2],
      null,
      { [chainDigestKey]: 'mine' },
      { [wrappedMetadataKey]: {} },
    ];
    const batch = metadatas.map((metadata) => event({ ok: true }, metadata));
    await store.appendToStream(stream, batch);
    const read = await collect(store.readStream(stream));
    expect(read.map((recorded) => recorded.metadata)).toEqual(metadatas);
    expect((await audit(store)).breaks).toEqual([]);
  });

  it('finds no break in streams written through the port, and its heads are the last digests', async () => {
    const { client, store } = setup();
    for (const name of ['session-a', 'session-b']) {
      await store.appendToStream(streamName(name), [event(), event('two', { time: 2 })]);
      await store.appendToStream(streamName(name), [event(null)], { expectedRevision: 1n });
    }
    const { breaks, heads } = await audit(store);
    expect(breaks).toEqual([]);
    expect(heads).toEqual(
      ['session-a', 'session-b'].map((name) => ({
        streamName: name,
        revision: 2n,
        digest: digestIn(client.streamRecords(name)[2]?.metadata),
      })),
    );
  });

  it('names the first event whose stored data was changed', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    await store.appendToStream(stream, [event({ n: 1 }), event({ n: 2 }), event({ n: 3 })]);
    const stored = client.streamRecords(stream)[1] as { data: unknown };
    stored.data = { n: 20 };
    expect(codes((await audit(store)).breaks)).toEqual([['chain-event-changed', stream, 1n]]);
  });

  it('names a changed metadata field, the digest left as it was', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    await store.appendToStream(stream, [event({ n: 1 }, { time: 1, writerSessionId: 'alice' })]);
    const stored = client.streamRecords(stream)[0] as { metadata: Record<string, unknown> };
    stored.metadata = { ...stored.metadata, writerSessionId: 'lead' };
    expect(codes((await audit(store)).breaks)).toEqual([['chain-event-changed', stream, 0n]]);
  });

  it('names an event whose stored digest is not a digest as changed', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    await store.appendToStream(stream, [event({ n: 1 }, { time: 1 })]);
    const stored = client.streamRecords(stream)[0] as { metadata: Record<string, unknown> };
    stored.metadata = { ...stored.metadata, [chainDigestKey]: 'not a digest' };
    expect(codes((await audit(store)).breaks)).toEqual([['chain-event-changed', stream, 0n]]);
  });

  it('names a removed event', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    await store.appendToStream(stream, [event({ n: 1 }), event({ n: 2 }), event({ n: 3 })]);
    client.log.splice(client.log.indexOf(client.streamRecords(stream)[1] as (typeof client.log)[number]), 1);
    expect(codes((await audit(store)).breaks)).toEqual([['chain-event-removed', stream, 1n]]);
  });

  it('names an event appended past the adapter (no digest) as unchained, and chains on after it', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    await store.appendToStream(stream, [event()]);
    await client.appendToStream(stream, [
      { id: uuidv4(), contentType: 'application/json', type: 'raw', data: { by: 'hand' }, metadata: { time: 0 } },
    ]);
    await store.appendToStream(stream, [event()]);
    expect(codes((await audit(store)).breaks)).toEqual([['chain-event-unchained', stream, 1n]]);
  });

  it('compares the heads with digests kept earlier', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    await store.appendToStream(stream, [event({ n: 1 }), event({ n: 2 })]);
    const { heads } = await audit(store);
    client.log.splice(client.log.indexOf(client.streamRecords(stream)[1] as (typeof client.log)[number]), 1);
    expect(codes((await audit(store, heads)).breaks)).toEqual([['chain-stream-truncated', stream, 1n]]);
  });

  it("chains after a racing writer's event when the expectation allows it ('any')", async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    await store.appendToStream(stream, [event()]);
    const append = client.appendToStream.bind(client);
    let raced = false;
    client.appendToStream = async (name, events, options) => {
      if (!raced) {
        raced = true;
        await store.appendToStream(stream, [event({ racer: true })]);
      }
      return append(name, events, options);
    };
    const result = await store.appendToStream(stream, [event({ mine: true })]);
    expect(result.nextExpectedRevision).toBe(2n);
    expect((await collect(store.readStream(stream))).map((recorded) => recorded.data)).toEqual([
      { n: 1 },
      { racer: true },
      { mine: true },
    ]);
    expect((await audit(store)).breaks).toEqual([]);
  });

  it('answers a retried batch already at the head from what is stored, without chaining it twice', async () => {
    const { client, store } = setup();
    const stream = streamName('session-a');
    const batch = [event({ n: 1 }), event({ n: 2 })];
    const original = await store.appendToStream(stream, batch);
    expect(await store.appendToStream(stream, batch)).toEqual(original);
    expect(client.streamRecords(stream)).toHaveLength(2);
    expect((await audit(store)).breaks).toEqual([]);
  });
});

describeEventStoreConformance(
  'EventStoreDbEventStore over the fake client (the chained append keeps the port)',
  async () => {
    const { store } = setup();
    return { store, dispose: () => store.close() };
  },
  { uniqueEventIdsAcrossStreams: false },
);
