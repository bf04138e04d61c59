import Database from 'better-sqlite3';
import { SqliteEventStore, type SqliteEventStoreOptions } from '@teamlog/store-sqlite';
import { collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import { tempStoreFile } from './temp-store-file';

const withStore = async (
  run: (store: SqliteEventStore, file: string) => Promise<void>,
  options: SqliteEventStoreOptions = {},
): Promise<void> => {
  const { file, cleanup } = tempStoreFile();
  const store = SqliteEventStore.open(file, options);
  try {
    await run(store, file);
  } finally {
    await store.close();
    cleanup();
  }
};

const countEvents = (file: string): number => {
  const raw = new Database(file, { readonly: true });
  try {
    return Number((raw.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number | bigint }).n);
  } finally {
    raw.close();
  }
};

describe('SqliteEventStore group commit', () => {
  it('commits appends requested in one turn of the event loop in one durable transaction', async () => {
    await withStore(async (store) => {
      const streams = Array.from({ length: 20 }, () => uniqueStream('group'));
      const results = await Promise.all(
        streams.map((stream) => store.appendToStream(stream, [newEvent('group/one'), newEvent('group/two')])),
      );
      expect(store.appendTransactions).toBe(1);
      expect(results.map((result) => result.nextExpectedRevision)).toEqual(streams.map(() => 1n));
      const positions = results.map((result) => result.position.commit);
      expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
      for (const stream of streams) {
        expect((await collect(store.readStream(stream))).map((event) => event.type)).toEqual([
          'group/one',
          'group/two',
        ]);
      }
    });
  });

  it('splits the appends of one turn into groups of at most maxGroupEvents events, in request order, never splitting an append', async () => {
    await withStore(
      async (store) => {
        const streams = Array.from({ length: 4 }, () => uniqueStream('capped'));
        const large = uniqueStream('large');
        const results = await Promise.all([
          ...streams.map((stream) => store.appendToStream(stream, [newEvent(), newEvent()])),
          store.appendToStream(
            large,
            Array.from({ length: 7 }, () => newEvent()),
          ),
        ]);
        // [2, 2] then [2, 2] then the 7-event append alone.
        expect(store.appendTransactions).toBe(3);
        const positions = results.map((result) => result.position.commit);
        expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
        expect(await collect(store.readStream(large))).toHaveLength(7);
      },
      { maxGroupEvents: 5 },
    );
  });

  it('commits appends awaited one after another in a transaction each', async () => {
    await withStore(async (store) => {
      const stream = uniqueStream('serial');
      await store.appendToStream(stream, [newEvent()]);
      await store.appendToStream(stream, [newEvent()]);
      expect(store.appendTransactions).toBe(2);
    });
  });

  it('takes one turn of the event loop per commit for a sender that awaits each append: the commit and the end of its look at data_version share one immediate', async () => {
    await withStore(async (store) => {
      const stream = uniqueStream('one-hop');
      await store.appendToStream(stream, [newEvent()]);
      const immediates = jest.spyOn(global, 'setImmediate');
      try {
        for (let revision = 0n; revision < 10n; revision += 1n)
          await store.appendToStream(stream, [newEvent()], { expectedRevision: revision });
        expect(immediates).toHaveBeenCalledTimes(10);
        expect(store.appendTransactions).toBe(11);
      } finally {
        immediates.mockRestore();
      }
    });
  });

  it("commits an append requested while a unit holds the connection once, after the unit's end, however many turns the unit takes", async () => {
    const { file, cleanup } = tempStoreFile();
    // A budget of one byte: the unit takes the write lock and holds the connection from its first batch.
    const store = SqliteEventStore.open(file, { maxBufferedUnitBytes: 1 });
    try {
      const held = uniqueStream('held');
      const waiting = uniqueStream('waiting');
      const unit = store.stageAppends();
      await unit.append(held, [newEvent()], { expectedRevision: 'no_stream' });
      const appended = store.appendToStream(waiting, [newEvent()]);
      for (let turn = 0; turn < 5; turn += 1) {
        // Each look at data_version asks for the turn's end, which must not start the waiting commit again.
        store.knownRevision(waiting);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await unit.commit();
      await expect(appended).resolves.toMatchObject({ nextExpectedRevision: 0n });
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.appendTransactions).toBe(1);
      expect(countEvents(file)).toBe(2);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('fails only the append whose expected revision is wrong; the rest of its group is stored', async () => {
    await withStore(async (store, file) => {
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
      expect(second.status).toBe('rejected');
      expect((second as PromiseRejectedResult).reason).toMatchObject({ code: 'WrongExpectedVersion' });
      expect((second as PromiseRejectedResult).reason).toMatchObject({ fault: { expected: 'no_stream', actual: 0n } });
      expect(third.status).toBe('fulfilled');
      expect(store.appendTransactions).toBe(1);
      expect((await collect(store.readStream(contested))).map((event) => event.type)).toEqual(['contest/winner']);
      expect(countEvents(file)).toBe(2);
    });
  });

  it('rolls back a partly inserted append whose later event id clashes, keeping the rest of the group', async () => {
    await withStore(async (store, file) => {
      const shared = newEvent('clash/shared');
      const [first, second] = await Promise.allSettled([
        store.appendToStream(uniqueStream('clash-a'), [shared]),
        store.appendToStream(uniqueStream('clash-b'), [newEvent('clash/fresh'), shared]),
      ]);
      expect(first.status).toBe('fulfilled');
      expect((second as PromiseRejectedResult).reason).toMatchObject({ code: 'DuplicateEventId' });
      expect(countEvents(file)).toBe(1);
    });
  });

  it('answers a retry in the same group with the original result', async () => {
    await withStore(async (store) => {
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

  it('answers a retry of a batch stored earlier with the original result, and stores the rest of its group', async () => {
    await withStore(async (store) => {
      const stream = uniqueStream('retried');
      const fresh = uniqueStream('fresh');
      const events = [newEvent('retried/one'), newEvent('retried/two')];
      const original = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
      const [retry, other, again] = await Promise.all([
        store.appendToStream(stream, events, { expectedRevision: 'no_stream' }),
        store.appendToStream(fresh, [newEvent('fresh/kept')]),
        store.appendToStream(stream, events),
      ]);
      expect(retry).toEqual(original);
      expect(again).toEqual(original);
      expect(other.nextExpectedRevision).toBe(0n);
      expect(store.appendTransactions).toBe(2);
      expect(await collect(store.readStream(stream))).toHaveLength(2);
    });
  });

  it('checks each append of a group against the revisions the appends before it in the group take', async () => {
    await withStore(async (store) => {
      const stream = uniqueStream('chained');
      const results = await Promise.all([
        store.appendToStream(stream, [newEvent('chain/one'), newEvent('chain/two')], { expectedRevision: 'no_stream' }),
        store.appendToStream(stream, [newEvent('chain/three')], { expectedRevision: 1n }),
        store.appendToStream(stream, [newEvent('chain/four')], { expectedRevision: 'stream_exists' }),
      ]);
      expect(results.map((result) => result.nextExpectedRevision)).toEqual([1n, 2n, 3n]);
      expect(store.appendTransactions).toBe(1);
      const stored = await collect(store.readStream(stream));
      expect(stored.map((event) => [event.revision, event.position.commit])).toEqual(
        results.flatMap((result, index) =>
          index === 0
            ? [
                [0n, result.position.commit - 1n],
                [1n, result.position.commit],
              ]
            : [[result.nextExpectedRevision, result.position.commit]],
        ),
      );
    });
  });

  it('keeps stream heads in the events index alone: no streams table, and the heads hold after reopening', async () => {
    const { file, cleanup } = tempStoreFile();
    const stream = uniqueStream('heads');
    const store = SqliteEventStore.open(file);
    await store.appendToStream(stream, [newEvent(), newEvent(), newEvent()]);
    await store.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'streams'").all()).toEqual([]);
    raw.close();
    const reopened = SqliteEventStore.open(file);
    expect(await reopened.streamRevision(stream)).toBe(2n);
    expect(reopened.listStreams()).toEqual([{ streamName: stream, lastRevision: 2n }]);
    await expect(reopened.appendToStream(stream, [newEvent()], { expectedRevision: 2n })).resolves.toMatchObject({
      nextExpectedRevision: 3n,
    });
    await reopened.close();
    cleanup();
  });

  it('fails the whole group, writing nothing, when the write lock cannot be taken', async () => {
    await withStore(
      async (store, file) => {
        const blocker = new Database(file);
        blocker.prepare('BEGIN IMMEDIATE').run();
        try {
          const outcomes = await Promise.allSettled([
            store.appendToStream(uniqueStream('busy'), [newEvent()]),
            store.appendToStream(uniqueStream('busy'), [newEvent()]),
          ]);
          expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
          expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_BUSY' });
        } finally {
          blocker.prepare('ROLLBACK').run();
          blocker.close();
        }
        expect(countEvents(file)).toBe(0);
        expect(store.appendTransactions).toBe(0);
      },
      { busyTimeoutMs: 50 },
    );
  });

  it('commits the appends already requested when closed, and refuses later ones', async () => {
    const { file, cleanup } = tempStoreFile();
    const stream = uniqueStream('closing');
    const store = SqliteEventStore.open(file);
    const requested = store.appendToStream(stream, [newEvent('closing/kept')]);
    await store.close();
    await expect(requested).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(store.appendToStream(stream, [newEvent()])).rejects.toMatchObject({ code: 'StoreClosed' });
    const reopened = SqliteEventStore.open(file);
    expect((await collect(reopened.readStream(stream))).map((event) => event.type)).toEqual(['closing/kept']);
    await reopened.close();
    cleanup();
  });

  it("settles an append's one promise with what its continuation makes of the durable result, before the next caller of the same commit resumes", async () => {
    await withStore(async (store) => {
      const seen: string[] = [];
      const [first, second] = await Promise.all([
        store
          .appendToStreamSettled(
            uniqueStream('settled'),
            [newEvent()],
            { expectedRevision: 'no_stream' },
            {
              committed: (result) => {
                seen.push('first committed');
                return `first at ${result.nextExpectedRevision}`;
              },
              failed: () => 'first failed',
            },
          )
          .then((value) => {
            seen.push('first resumed');
            return value;
          }),
        store
          .appendToStreamSettled(
            uniqueStream('settled'),
            [newEvent()],
            {},
            {
              committed: () => {
                seen.push('second committed');
                return 'second';
              },
              failed: () => 'second failed',
            },
          )
          .then((value) => {
            seen.push('second resumed');
            return value;
          }),
      ]);
      expect([first, second]).toEqual(['first at 0', 'second']);
      expect(store.appendTransactions).toBe(1);
      expect(seen).toEqual(['first committed', 'second committed', 'first resumed', 'second resumed']);
    });
  });

  it('hands a settled append that failed alone, or was refused before it was queued, to its continuation', async () => {
    await withStore(async (store) => {
      const stream = uniqueStream('settled');
      await store.appendToStream(stream, [newEvent()]);
      const failedWith = (error: unknown): string => (error as { code?: string }).code ?? String(error);
      const [conflict, kept] = await Promise.all([
        store.appendToStreamSettled(
          stream,
          [newEvent()],
          { expectedRevision: 'no_stream' },
          {
            committed: () => 'committed',
            failed: failedWith,
          },
        ),
        store.appendToStreamSettled(
          uniqueStream('settled'),
          [newEvent()],
          {},
          {
            committed: () => 'committed',
            failed: failedWith,
          },
        ),
      ]);
      expect([conflict, kept]).toEqual(['WrongExpectedVersion', 'committed']);
      const twice = newEvent();
      const refused = await store.appendToStreamSettled(
        stream,
        [twice, twice],
        {},
        {
          committed: () => 'committed',
          failed: failedWith,
        },
      );
      expect(refused).toBe('InvalidAppend');
    });
  });
});
