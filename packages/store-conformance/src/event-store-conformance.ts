import {
  type EventStore,
  type RecordedEvent,
  comparePositions,
  type StoreErrorCode,
  type StoreFault,
  isStoreError,
} from '@teamlog/store';
import type { FaultOf } from '@teamlog/events';
import { collect } from './collect';
import { newEvent, uniqueStream } from './test-events';

/* One suite, parameterised by a store factory, run against every adapter. */

export interface StoreUnderTest {
  readonly store: EventStore;
  readonly dispose: () => Promise<void>;
}
export type StoreFactory = () => Promise<StoreUnderTest>;

/** Where an adapter's guarantee is documented as weaker than the port's strongest form. */
export interface ConformanceOptions {
  /**
   * Whether an event id is unique across all streams (SQLite, in-memory). EventStoreDB checks ids
   * only within a stream; its run asserts that weaker rule instead (docs/scale-out.md).
   */
  readonly uniqueEventIdsAcrossStreams?: boolean;
}

const revisions = (events: readonly RecordedEvent[]) => events.map((event) => event.revision);

/** The fault of a StoreError of `code`; anything else fails the test, naming what came instead. */
const faultOf = <C extends StoreErrorCode>(error: unknown, code: C): FaultOf<StoreFault, C> => {
  if (!isStoreError(error, code)) throw new Error(`expected a StoreError ${code}, got ${String(error)}`);
  return error.fault;
};

export const describeEventStoreConformance = (
  adapterName: string,
  factory: StoreFactory,
  options: ConformanceOptions = {},
): void => {
  describe(`${adapterName} conforms to the EventStore port`, () => {
    let subject: StoreUnderTest;
    let store: EventStore;
    beforeEach(async () => {
      subject = await factory();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    describe('expected revision', () => {
      it('no_stream succeeds on a new stream and fails on an existing one with the actual revision', async () => {
        const stream = uniqueStream();
        const first = await store.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });
        expect(first.nextExpectedRevision).toBe(0n);
        const error = await store
          .appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'StoreError', code: 'WrongExpectedVersion' });
        expect(faultOf(error, 'WrongExpectedVersion').expected).toBe('no_stream');
        expect(faultOf(error, 'WrongExpectedVersion').actual).toBe(0n);
      });

      it('stream_exists fails on a missing stream and succeeds on an existing one', async () => {
        const stream = uniqueStream();
        const error = await store
          .appendToStream(stream, [newEvent()], { expectedRevision: 'stream_exists' })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'StoreError', code: 'WrongExpectedVersion' });
        expect(faultOf(error, 'WrongExpectedVersion').actual).toBe('no_stream');
        await store.appendToStream(stream, [newEvent()]);
        const result = await store.appendToStream(stream, [newEvent()], { expectedRevision: 'stream_exists' });
        expect(result.nextExpectedRevision).toBe(1n);
      });

      it('an exact revision succeeds only when it is the last revision', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent(), newEvent()]);
        const stale = await store
          .appendToStream(stream, [newEvent()], { expectedRevision: 0n })
          .catch((e: unknown) => e);
        expect(stale).toMatchObject({ name: 'StoreError', code: 'WrongExpectedVersion' });
        expect(faultOf(stale, 'WrongExpectedVersion').expected).toBe(0n);
        expect(faultOf(stale, 'WrongExpectedVersion').actual).toBe(1n);
        const result = await store.appendToStream(stream, [newEvent()], { expectedRevision: 1n });
        expect(result.nextExpectedRevision).toBe(2n);
      });

      it('any appends whatever the stream holds', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent()], { expectedRevision: 'any' });
        const result = await store.appendToStream(stream, [newEvent()], { expectedRevision: 'any' });
        expect(result.nextExpectedRevision).toBe(1n);
      });

      it('a failed expectation writes nothing', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent()]);
        await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 5n }).catch(() => undefined);
        expect(await collect(store.readStream(stream))).toHaveLength(1);
      });
    });

    describe('ordering and content', () => {
      it('keeps type, data and metadata and numbers revisions densely from 0', async () => {
        const stream = uniqueStream();
        const data = { text: 'héllo ✓ 𝄞', nested: { list: [1, 2.5, null, true] } };
        await store.appendToStream(stream, [newEvent('a/one', data), newEvent('a/two')]);
        await store.appendToStream(stream, [newEvent('a/three')]);
        const events = await collect(store.readStream(stream));
        expect(events.map((event) => event.type)).toEqual(['a/one', 'a/two', 'a/three']);
        expect(revisions(events)).toEqual([0n, 1n, 2n]);
        expect(events[0]?.data).toEqual(data);
        expect(events[0]?.metadata).toEqual({ time: 0 });
        expect(events.every((event) => event.streamName === stream)).toBe(true);
      });

      it('returns the position of the last appended event, monotonic across appends', async () => {
        const stream = uniqueStream();
        const first = await store.appendToStream(stream, [newEvent()]);
        const second = await store.appendToStream(stream, [newEvent(), newEvent()]);
        expect(comparePositions(second.position, first.position)).toBeGreaterThan(0);
        const events = await collect(store.readStream(stream));
        expect(events[2]?.position).toEqual(second.position);
      });

      it('reports the last revision of a stream, or nothing for a missing one', async () => {
        const stream = uniqueStream();
        expect(await store.streamRevision(stream)).toBeUndefined();
        await store.appendToStream(stream, [newEvent(), newEvent(), newEvent()]);
        expect(await store.streamRevision(stream)).toBe(2n);
      });
    });

    describe('idempotent retry by event id', () => {
      it('appending the same events again is a no-op that returns the original result', async () => {
        const stream = uniqueStream();
        const batch = [newEvent(), newEvent()];
        const original = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        await store.appendToStream(stream, [newEvent()]);
        const retried = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        expect(retried).toEqual(original);
        expect(await collect(store.readStream(stream))).toHaveLength(3);
      });

      it('refuses a batch that only partly repeats stored ids, writing nothing', async () => {
        const stream = uniqueStream();
        const stored = newEvent();
        await store.appendToStream(stream, [stored]);
        const error = await store.appendToStream(stream, [stored, newEvent()]).catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'StoreError', code: 'DuplicateEventId' });
        expect(await collect(store.readStream(stream))).toHaveLength(1);
      });

      if (options.uniqueEventIdsAcrossStreams ?? true) {
        it('refuses an id already stored in another stream', async () => {
          const event = newEvent();
          await store.appendToStream(uniqueStream(), [event]);
          const error = await store.appendToStream(uniqueStream(), [event]).catch((e: unknown) => e);
          expect(error).toMatchObject({ name: 'StoreError', code: 'DuplicateEventId' });
        });
      } else {
        it('keeps event ids per stream: the same id in another stream is a new event there', async () => {
          const event = newEvent();
          const other = uniqueStream();
          await store.appendToStream(uniqueStream(), [event]);
          await store.appendToStream(other, [event]);
          expect((await collect(store.readStream(other))).map((stored) => stored.id)).toEqual([event.id]);
        });
      }
    });

    describe('reading a stream', () => {
      const fill = async (count: number) => {
        const stream = uniqueStream();
        await store.appendToStream(
          stream,
          Array.from({ length: count }, (_, n) => newEvent('n/th', { n })),
        );
        return stream;
      };

      it('reads forwards from a revision with maxCount', async () => {
        const stream = await fill(10);
        const events = await collect(store.readStream(stream, { from: 3n, maxCount: 4 }));
        expect(revisions(events)).toEqual([3n, 4n, 5n, 6n]);
      });

      it('reads backwards from the end and from a revision', async () => {
        const stream = await fill(5);
        expect(revisions(await collect(store.readStream(stream, { direction: 'backwards' })))).toEqual([
          4n,
          3n,
          2n,
          1n,
          0n,
        ]);
        expect(
          revisions(await collect(store.readStream(stream, { direction: 'backwards', from: 2n, maxCount: 2 }))),
        ).toEqual([2n, 1n]);
        expect(revisions(await collect(store.readStream(stream, { direction: 'backwards', maxCount: 1 })))).toEqual([
          4n,
        ]);
      });

      it('reads nothing forwards from the end or past the last revision', async () => {
        const stream = await fill(3);
        expect(await collect(store.readStream(stream, { from: 'end' }))).toEqual([]);
        expect(await collect(store.readStream(stream, { from: 7n }))).toEqual([]);
      });

      it('throws StreamNotFound for a stream with no events', async () => {
        await expect(collect(store.readStream(uniqueStream()))).rejects.toMatchObject({
          name: 'StoreError',
          code: 'StreamNotFound',
        });
      });
    });

    describe('reading all events', () => {
      it('returns events of every stream in global order, strictly after a position', async () => {
        const a = uniqueStream('a');
        const b = uniqueStream('b');
        const before = await collect(store.readAll());
        const mark = before[before.length - 1]?.position;
        await store.appendToStream(a, [newEvent('x/1')]);
        await store.appendToStream(b, [newEvent('x/2'), newEvent('x/3')]);
        await store.appendToStream(a, [newEvent('x/4')]);
        const after = await collect(store.readAll(mark === undefined ? {} : { fromPosition: mark }));
        const ours = after.filter((event) => event.streamName === a || event.streamName === b);
        expect(ours.map((event) => event.type)).toEqual(['x/1', 'x/2', 'x/3', 'x/4']);
        for (let i = 1; i < after.length; i += 1) {
          expect(
            comparePositions((after[i] as RecordedEvent).position, (after[i - 1] as RecordedEvent).position),
          ).toBeGreaterThan(0);
        }
        const fromSecond = await collect(
          store.readAll({ fromPosition: (ours[1] as RecordedEvent).position, maxCount: 2 }),
        );
        expect(fromSecond.map((event) => event.type)).toEqual(['x/3', 'x/4']);
      });
    });

    describe('catch-up subscription', () => {
      it('delivers past events, then events appended after it started', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('s/past')]);
        const subscription = store.subscribeToAll({ fromPosition: 'start' });
        const seen: string[] = [];
        const done = (async () => {
          for await (const event of subscription) {
            if (event.streamName !== stream) continue;
            seen.push(event.type);
            if (seen.length === 3) break;
          }
        })();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await store.appendToStream(stream, [newEvent('s/live-1')]);
        await store.appendToStream(stream, [newEvent('s/live-2')]);
        await done;
        await subscription.unsubscribe();
        expect(seen).toEqual(['s/past', 's/live-1', 's/live-2']);
      });

      it('from the end delivers only new appends', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('s/old')]);
        const subscription = store.subscribeToAll({ fromPosition: 'end' });
        const first = (async () => {
          for await (const event of subscription) if (event.streamName === stream) return event.type;
          return undefined;
        })();
        // Where "the end" falls is not observable from outside (a server store asks for it on
        // another connection), so new events are appended until one arrives: a loaded machine only
        // makes the loop longer. The old event must never come.
        let settled = false;
        const delivered = first.finally(() => {
          settled = true;
        });
        for (let round = 0; !settled; round += 1) {
          await store.appendToStream(stream, [newEvent(`s/new-${round}`)]);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await subscription.unsubscribe();
        expect(await delivered).toMatch(/^s\/new-\d+$/);
      });

      it('resumes strictly after a checkpoint position', async () => {
        const stream = uniqueStream();
        const mark = await store.appendToStream(stream, [newEvent('s/1'), newEvent('s/2')]);
        await store.appendToStream(stream, [newEvent('s/3')]);
        const subscription = store.subscribeToAll({ fromPosition: mark.position });
        let type: string | undefined;
        for await (const event of subscription) {
          if (event.streamName === stream) {
            type = event.type;
            break;
          }
        }
        await subscription.unsubscribe();
        expect(type).toBe('s/3');
      });
    });

    // The same rules whether or not the caller holds the staged events (an adapter may keep a held unit in memory).
    for (const hint of [{}, { callerHoldsEvents: true }] as const) {
      describe(`staged appends (a unit over several streams)${hint.callerHoldsEvents === true ? ', the caller holding the events' : ''}`, () => {
        const count = async (stream: ReturnType<typeof uniqueStream>): Promise<number> =>
          (await store.streamRevision(stream)) === undefined ? 0 : (await collect(store.readStream(stream))).length;

        it('writes nothing before commit, then every stream at once, the first staged stream first in $all', async () => {
          const header = uniqueStream('header');
          const body = uniqueStream('body');
          const unit = store.stageAppends(hint);
          await unit.append(header, [newEvent('h/one')], { expectedRevision: 'no_stream' });
          await unit.append(body, [newEvent('b/0'), newEvent('b/1')], { expectedRevision: 'no_stream' });
          await unit.append(body, [newEvent('b/2')], { expectedRevision: 1n });
          expect(await store.streamRevision(header)).toBeUndefined();
          expect(await store.streamRevision(body)).toBeUndefined();
          const results = await unit.commit();
          expect(results.map((result) => [result.streamName, result.nextExpectedRevision, result.events])).toEqual([
            [header, 0n, 1],
            [body, 2n, 3],
          ]);
          expect((await collect(store.readStream(body))).map((event) => event.type)).toEqual(['b/0', 'b/1', 'b/2']);
          const all = (await collect(store.readAll())).filter(
            (event) => event.streamName === header || event.streamName === body,
          );
          expect(all.map((event) => event.type)).toEqual(['h/one', 'b/0', 'b/1', 'b/2']);
          expect(results[1]?.position).toEqual(all[3]?.position);
          // A store that knows heads without reading knows the unit's.
          for (const [stream, revision] of [
            [header, 0n],
            [body, 2n],
          ] as const) {
            const known = store.knownRevision(stream);
            if (known !== undefined) expect(known.revision).toBe(revision);
          }
        });

        it('a failed expectation on one stream writes no stream of the unit', async () => {
          const header = uniqueStream('header');
          const body = uniqueStream('body');
          await store.appendToStream(body, [newEvent()]);
          const unit = store.stageAppends(hint);
          await unit.append(header, [newEvent()], { expectedRevision: 'no_stream' });
          await unit.append(body, [newEvent()], { expectedRevision: 'no_stream' });
          const error = await unit.commit().catch((e: unknown) => e);
          expect(error).toMatchObject({ name: 'StoreError', code: 'WrongExpectedVersion' });
          expect(await store.streamRevision(header)).toBeUndefined();
          expect(await count(body)).toBe(1);
        });

        it('a writer that appends to a staged stream before the commit makes the commit fail, writing nothing', async () => {
          const header = uniqueStream('header');
          const body = uniqueStream('body');
          const unit = store.stageAppends(hint);
          await unit.append(header, [newEvent()], { expectedRevision: 'no_stream' });
          await unit.append(body, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
          await store.appendToStream(body, [newEvent('other/writer')]);
          await expect(unit.commit()).rejects.toMatchObject({ name: 'StoreError', code: 'WrongExpectedVersion' });
          expect(await store.streamRevision(header)).toBeUndefined();
          expect(await count(body)).toBe(1);
          const known = store.knownRevision(header);
          if (known !== undefined) expect(known.revision).toBeUndefined();
        });

        it('is never an idempotent retry: the same events committed again fail on their expectation', async () => {
          const stream = uniqueStream();
          const batch = [newEvent(), newEvent()];
          const first = store.stageAppends(hint);
          await first.append(stream, batch, { expectedRevision: 'no_stream' });
          await first.commit();
          const again = store.stageAppends(hint);
          await again.append(stream, batch, { expectedRevision: 'no_stream' });
          await expect(again.commit()).rejects.toMatchObject({ name: 'StoreError', code: 'WrongExpectedVersion' });
          expect(await count(stream)).toBe(2);
        });

        if (options.uniqueEventIdsAcrossStreams ?? true) {
          it('an id already stored in another stream fails the commit with DuplicateEventId, writing nothing', async () => {
            const event = newEvent();
            await store.appendToStream(uniqueStream(), [event]);
            const header = uniqueStream('header');
            const body = uniqueStream('body');
            const unit = store.stageAppends(hint);
            await unit.append(header, [newEvent()], { expectedRevision: 'no_stream' });
            await unit.append(body, [newEvent(), event], { expectedRevision: 'no_stream' });
            await expect(unit.commit()).rejects.toMatchObject({ name: 'StoreError', code: 'DuplicateEventId' });
            expect(await store.streamRevision(header)).toBeUndefined();
            expect(await store.streamRevision(body)).toBeUndefined();
          });
        }

        if (options.uniqueEventIdsAcrossStreams ?? true) {
          it('an id staged twice in one unit fails the commit with DuplicateEventId, writing nothing', async () => {
            const stream = uniqueStream();
            const event = newEvent();
            const unit = store.stageAppends(hint);
            await unit.append(stream, [event, newEvent()], { expectedRevision: 'no_stream' });
            await unit.append(uniqueStream('other'), [event], { expectedRevision: 'no_stream' });
            await expect(unit.commit()).rejects.toMatchObject({ name: 'StoreError', code: 'DuplicateEventId' });
            expect(await store.streamRevision(stream)).toBeUndefined();
          });
        }

        it('abort drops what was staged; a unit is over after commit or abort', async () => {
          const stream = uniqueStream();
          const unit = store.stageAppends(hint);
          await unit.append(stream, [newEvent()], { expectedRevision: 'no_stream' });
          await unit.abort();
          expect(await store.streamRevision(stream)).toBeUndefined();
          await expect(unit.commit()).rejects.toMatchObject({ name: 'StoreError', code: 'InvalidAppend' });
          await expect(unit.append(stream, [newEvent()])).rejects.toMatchObject({
            name: 'StoreError',
            code: 'InvalidAppend',
          });
        });

        it('refuses a later batch whose expectation does not continue the staged ones', async () => {
          const stream = uniqueStream();
          const unit = store.stageAppends(hint);
          await unit.append(stream, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
          await expect(unit.append(stream, [newEvent()], { expectedRevision: 5n })).rejects.toMatchObject({
            name: 'StoreError',
            code: 'InvalidAppend',
          });
          await unit.abort();
        });

        it('continues a stream that already has events, after the revision it expects', async () => {
          const stream = uniqueStream();
          await store.appendToStream(stream, [newEvent('s/0'), newEvent('s/1')]);
          const unit = store.stageAppends(hint);
          await unit.append(stream, [newEvent('s/2')], { expectedRevision: 1n });
          await unit.append(stream, [newEvent('s/3')], { expectedRevision: 2n });
          const [result] = await unit.commit();
          expect(result?.nextExpectedRevision).toBe(3n);
          expect(revisions(await collect(store.readStream(stream)))).toEqual([0n, 1n, 2n, 3n]);
        });

        it('commits 30,000 events staged in batches as one unit', async () => {
          const header = uniqueStream('header');
          const body = uniqueStream('body');
          const unit = store.stageAppends(hint);
          await unit.append(header, [newEvent()], { expectedRevision: 'no_stream' });
          for (let batch = 0; batch < 15; batch += 1) {
            await unit.append(
              body,
              Array.from({ length: 2_000 }, (_, n) => newEvent('bulk/item', { n: batch * 2_000 + n })),
              { expectedRevision: batch === 0 ? 'no_stream' : BigInt(batch * 2_000 - 1) },
            );
          }
          const results = await unit.commit();
          expect(results[1]?.nextExpectedRevision).toBe(29_999n);
          const events = await collect(store.readStream(body));
          expect(events).toHaveLength(30_000);
          expect(events[29_999]?.data).toEqual({ n: 29_999 });
        }, 120_000);
      });
    }

    describe('known revision (what a store can tell without reading)', () => {
      /** A store may always say it cannot tell; whatever it does say must be the truth. */
      const expectTruthful = async (stream: ReturnType<typeof uniqueStream>) => {
        const known = store.knownRevision(stream);
        if (known !== undefined) expect(known.revision).toBe(await store.streamRevision(stream));
      };

      it('answers, when it answers, the true head: before and after appends, after a read, and for a stream that does not exist', async () => {
        const stream = uniqueStream();
        await expectTruthful(stream);
        await store.appendToStream(stream, [newEvent(), newEvent()]);
        await expectTruthful(stream);
        await collect(store.readStream(stream));
        await expectTruthful(stream);
        await store.appendToStream(stream, [newEvent()], { expectedRevision: 1n });
        await expectTruthful(stream);
        await store.appendToStream(stream, [newEvent()], { expectedRevision: 0n }).catch(() => undefined);
        await expectTruthful(stream);
      });

      it('never reports a head older than an append it has confirmed', async () => {
        const stream = uniqueStream();
        const appends = await Promise.all(Array.from({ length: 5 }, () => store.appendToStream(stream, [newEvent()])));
        const last = appends.reduce(
          (max, result) => (result.nextExpectedRevision > max ? result.nextExpectedRevision : max),
          -1n,
        );
        const known = store.knownRevision(stream);
        if (known !== undefined) expect(known.revision).toBe(last);
      });
    });

    describe('volume and concurrency', () => {
      it('appends 10,000 events in one append', async () => {
        const stream = uniqueStream();
        const batch = Array.from({ length: 10_000 }, (_, n) => newEvent('bulk/item', { n }));
        const result = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        expect(result.nextExpectedRevision).toBe(9_999n);
        const events = await collect(store.readStream(stream));
        expect(events).toHaveLength(10_000);
        expect(events[9_999]?.data).toEqual({ n: 9_999 });
      }, 60_000);

      it('concurrent appenders to one stream: one winner per revision, no gap, no duplicate', async () => {
        const stream = uniqueStream();
        const writers = 8;
        const perWriter = 25;
        const written: string[] = [];
        const writer = async () => {
          for (let n = 0; n < perWriter; n += 1) {
            const event = newEvent('race/won');
            for (;;) {
              const current = await store.streamRevision(stream);
              try {
                await store.appendToStream(stream, [event], { expectedRevision: current ?? 'no_stream' });
                written.push(event.id);
                break;
              } catch (error) {
                if (!isStoreError(error, 'WrongExpectedVersion')) throw error;
              }
            }
          }
        };
        await Promise.all(Array.from({ length: writers }, writer));
        const events = await collect(store.readStream(stream));
        expect(revisions(events)).toEqual(Array.from({ length: writers * perWriter }, (_, n) => BigInt(n)));
        expect(new Set(events.map((event) => event.id)).size).toBe(writers * perWriter);
        expect(new Set(events.map((event) => event.id))).toEqual(new Set(written));
      }, 60_000);
    });
  });
};
