import { collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import { openPostgresStore } from '@teamlog/store-postgres';
import { countEvents, rawClient } from './raw-sql';
import { databaseForFile, withStore } from './test-database';

const ascending = (values: readonly bigint[]): boolean =>
  values.every((value, index) => index === 0 || value > (values[index - 1] as bigint));

describe('PostgresEventStore group commit', () => {
  const database = databaseForFile('group_commit');

  it('commits the appends requested in one turn of the event loop in one transaction, in request order', async () => {
    await withStore(database().url, async (store) => {
      const streams = Array.from({ length: 20 }, () => uniqueStream('group'));
      const results = await Promise.all(
        streams.map((stream) => store.appendToStream(stream, [newEvent('group/one'), newEvent('group/two')])),
      );
      expect(store.appendTransactions).toBe(1);
      expect(new Set(results.map((result) => result.position.commit)).size).toBe(1);
      expect(ascending(results.map((result) => result.position.prepare))).toBe(true);
      for (const stream of streams)
        expect((await collect(store.readStream(stream))).map((event) => event.type)).toEqual([
          'group/one',
          'group/two',
        ]);
    });
  });

  it('sends a group as one statement, and its notification as one more, reading nothing first', async () => {
    await withStore(database().url, async (store) => {
      const streams = Array.from({ length: 16 }, () => uniqueStream('statements'));
      await Promise.all(streams.map((stream) => store.appendToStream(stream, [newEvent()])));
      const before = store.statementsSent;
      await Promise.all(streams.map((stream) => store.appendToStream(stream, [newEvent()], { expectedRevision: 0n })));
      expect(store.statementsSent - before).toBe(2);
    });
  });

  it('gathers the appends requested while a group is in flight into the next group', async () => {
    await withStore(database().url, async (store) => {
      const held = uniqueStream('held');
      await store.appendToStream(held, [newEvent()]);
      const blocker = await rawClient(database().url);
      try {
        // Hold the stream's lock so the next group stays in flight while three more turns request appends.
        await blocker.query('BEGIN');
        await blocker.query('SELECT 1 FROM teamlog.streams WHERE stream_name = $1 FOR UPDATE', [held]);
        const first = store.appendToStream(held, [newEvent()]);
        const later: Array<Promise<unknown>> = [];
        for (let turn = 0; turn < 3; turn += 1) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          later.push(store.appendToStream(uniqueStream('wave'), [newEvent()]));
        }
        await blocker.query('COMMIT');
        await Promise.all([first, ...later]);
      } finally {
        await blocker.end();
      }
      expect(store.appendTransactions).toBe(3);
    });
  });

  it("splits one turn's appends into groups of at most maxGroupEvents events, never splitting an append", async () => {
    await withStore(
      database().url,
      async (store) => {
        const large = uniqueStream('large');
        const results = await Promise.all([
          ...Array.from({ length: 4 }, () => store.appendToStream(uniqueStream('capped'), [newEvent(), newEvent()])),
          store.appendToStream(
            large,
            Array.from({ length: 7 }, () => newEvent()),
          ),
        ]);
        expect(store.appendTransactions).toBe(3);
        expect(ascending(results.map((result) => result.position.commit))).toBe(false); // two appends share each of the first two transactions
        expect(await collect(store.readStream(large))).toHaveLength(7);
      },
      { maxGroupEvents: 5 },
    );
  });

  it('fails only the append whose expected revision is wrong; the rest of its group is stored', async () => {
    await withStore(database().url, async (store) => {
      const contested = uniqueStream('contested');
      const other = uniqueStream('other');
      const [first, second, third] = await Promise.allSettled([
        store.appendToStream(contested, [newEvent('contest/winner')], { expectedRevision: 'no_stream' }),
        store.appendToStream(contested, [newEvent('contest/loser'), newEvent('contest/loser')], {
          expectedRevision: 'no_stream',
        }),
        store.appendToStream(other, [newEvent('other/kept')], { expectedRevision: 'no_stream' }),
      ]);
      expect(first.status).toBe('fulfilled');
      expect((second as PromiseRejectedResult).reason).toMatchObject({ code: 'WrongExpectedVersion' });
      expect((second as PromiseRejectedResult).reason).toMatchObject({ fault: { expected: 'no_stream', actual: 0n } });
      expect(third.status).toBe('fulfilled');
      expect(store.appendTransactions).toBe(1);
      expect((await collect(store.readStream(contested))).map((event) => event.type)).toEqual(['contest/winner']);
      expect(await countEvents(database().url, other)).toBe(1);
    });
  });

  it('rolls back a partly inserted append whose later event id clashes, keeping the rest of the group', async () => {
    await withStore(database().url, async (store) => {
      const shared = newEvent('clash/shared');
      const a = uniqueStream('clash-a');
      const b = uniqueStream('clash-b');
      const [first, second] = await Promise.allSettled([
        store.appendToStream(a, [shared]),
        store.appendToStream(b, [newEvent('clash/fresh'), shared]),
      ]);
      expect(first.status).toBe('fulfilled');
      expect((second as PromiseRejectedResult).reason).toMatchObject({ code: 'DuplicateEventId' });
      expect(await countEvents(database().url, a)).toBe(1);
      expect(await countEvents(database().url, b)).toBe(0);
      expect(await store.streamRevision(b)).toBeUndefined();
    });
  });

  it('answers a retry in the same group with the original result', async () => {
    await withStore(database().url, async (store) => {
      const stream = uniqueStream('retry');
      const events = [newEvent('retry/one'), newEvent('retry/two')];
      const [original, retry] = await Promise.all([
        store.appendToStream(stream, events),
        store.appendToStream(stream, events),
      ]);
      expect(retry).toEqual(original);
      expect(await collect(store.readStream(stream))).toHaveLength(2);
    });
  });

  it('answers a retry from another process (another store) with the original result, whatever it expects now', async () => {
    const stream = uniqueStream('retry-elsewhere');
    const events = [newEvent(), newEvent()];
    const original = await withStore(database().url, (store) =>
      store.appendToStream(stream, events, { expectedRevision: 'no_stream' }),
    );
    await withStore(database().url, async (store) => {
      await store.appendToStream(stream, [newEvent()]);
      expect(await store.appendToStream(stream, events, { expectedRevision: 'no_stream' })).toEqual(original);
    });
  });

  it('commits the appends already requested when closed, and refuses later ones', async () => {
    const stream = uniqueStream('closing');
    const store = await openPostgresStore(database().url);
    const requested = store.appendToStream(stream, [newEvent('closing/kept')]);
    await store.close();
    await expect(requested).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(store.appendToStream(stream, [newEvent()])).rejects.toMatchObject({ code: 'StoreClosed' });
    await withStore(database().url, async (reopened) =>
      expect((await collect(reopened.readStream(stream))).map((event) => event.type)).toEqual(['closing/kept']),
    );
  });

  it('leaves no stream row behind for an append that failed on a new stream', async () => {
    await withStore(database().url, async (store) => {
      const stream = uniqueStream('never');
      await expect(
        store.appendToStream(stream, [newEvent()], { expectedRevision: 'stream_exists' }),
      ).rejects.toMatchObject({ code: 'WrongExpectedVersion' });
      expect((await store.listStreams()).some((entry) => entry.streamName === stream)).toBe(false);
    });
  });
});
