import type { EventStore } from '@teamlog/store';
import { newEvent, uniqueStream } from '@teamlog/store-conformance';
import { databaseForFile, withStore } from './test-database';

/** Wait (generously: a loaded machine) until `condition` holds, checking between turns of the event loop. */
const eventually = async (condition: () => boolean, limitMs = 60_000): Promise<void> => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** Until the store's LISTEN connection is up, it knows no head: append until it answers for the stream it wrote. */
const knownAfterAppends = async (store: EventStore, stream: ReturnType<typeof uniqueStream>): Promise<bigint> => {
  const started = Date.now();
  for (;;) {
    const last = (await store.appendToStream(stream, [newEvent()])).nextExpectedRevision;
    if (store.knownRevision(stream)?.revision === last) return last;
    if (Date.now() - started > 60_000) throw new Error('the store never knew the head of its own append');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

// A trust window longer than any test: the heads here are only forgotten by notifications.
const patient = { headTrustMs: 600_000 };

describe('PostgresEventStore known revisions', () => {
  const database = databaseForFile('known_revision');

  it('knows the heads of its own appends without reading, and forgets one when another store appends to it', async () => {
    await withStore(
      database().url,
      async (store) => {
        await withStore(
          database().url,
          async (other) => {
            const stream = uniqueStream('known');
            const quiet = uniqueStream('quiet');
            const last = await knownAfterAppends(store, stream);
            const quietLast = (await store.appendToStream(quiet, [newEvent()])).nextExpectedRevision;
            expect(store.knownRevision(stream)).toEqual({ revision: last });
            expect(store.knownRevision(quiet)).toEqual({ revision: quietLast });
            await other.appendToStream(stream, [newEvent('other/writer')], { expectedRevision: last });
            await eventually(() => store.knownRevision(stream) === undefined);
            expect(store.knownRevision(quiet)).toEqual({ revision: quietLast });
            expect(await store.streamRevision(stream)).toBe(last + 1n);
            expect(store.knownRevision(stream)).toEqual({ revision: last + 1n });
          },
          patient,
        );
      },
      patient,
    );
  }, 180_000);

  it('shares one commit among concurrent appends that know their expected revisions', async () => {
    await withStore(database().url, async (store) => {
      const streams = Array.from({ length: 16 }, () => uniqueStream('steady'));
      await Promise.all(streams.map((stream) => store.appendToStream(stream, [newEvent()])));
      const before = store.appendTransactions;
      const results = await Promise.all(
        streams.map((stream) => store.appendToStream(stream, [newEvent()], { expectedRevision: 0n })),
      );
      expect(results.map((result) => result.nextExpectedRevision)).toEqual(streams.map(() => 1n));
      expect(store.appendTransactions - before).toBe(1);
    });
  });
});
