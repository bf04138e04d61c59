import { resolve } from 'node:path';
import { type RecordedEvent, comparePositions } from '@teamlog/store';
import { collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import { rawClient } from './raw-sql';
import { readInBackground } from './subscription-reader';
import { databaseForFile, withStore } from './test-database';
import { runChild } from '../../../test/support/child-process';

const ids = (events: readonly RecordedEvent[]) => events.map((event) => event.id);
const strictlyAscending = (events: readonly RecordedEvent[]) =>
  events.every(
    (event, index) =>
      index === 0 || comparePositions(event.position, (events[index - 1] as RecordedEvent).position) > 0,
  );

describe('PostgresEventStore $all order a catch-up can trust', () => {
  const database = databaseForFile('all_order');

  it('holds back an event committed after an older transaction that is still open, then delivers both in order and neither twice', async () => {
    const early = uniqueStream('early');
    const late = uniqueStream('late');
    const lateEvent = newEvent('order/older-transaction');
    const blocker = await rawClient(database().url);
    await withStore(
      database().url,
      async (store) => {
        const reader = readInBackground(
          store.subscribeToAll({ fromPosition: 'start' }),
          (event) => event.streamName === early || event.streamName === late,
        );
        try {
          // An append in a transaction that starts first (the lower transaction id) and commits last.
          await blocker.query('BEGIN');
          await blocker.query(
            "SELECT * FROM teamlog.append_group(ARRAY[$1], ARRAY['any'], ARRAY[1], ARRAY[now()], ARRAY[$2], ARRAY[$3], ARRAY['{}'::json], ARRAY[NULL::json])",
            [late, lateEvent.id, lateEvent.type],
          );
          await store.appendToStream(early, [newEvent('order/newer-transaction')]);
          await new Promise((done) => setTimeout(done, 300));
          expect(reader.events).toEqual([]);
          expect((await collect(store.readAll())).filter((event) => event.streamName === early)).toEqual([]);
          await blocker.query('COMMIT');
          await reader.until((events) => events.length >= 2);
          expect(reader.events.map((event) => event.type)).toEqual([
            'order/older-transaction',
            'order/newer-transaction',
          ]);
          const all = (await collect(store.readAll())).filter(
            (event) => event.streamName === early || event.streamName === late,
          );
          expect(ids(all)).toEqual(ids(reader.events));
        } finally {
          await reader.stop();
        }
      },
      { readYourWritesTimeoutMs: 100 },
    );
    await blocker.end();
  });

  it("readAll returns this store's own appends at once when no older transaction is open", async () => {
    await withStore(database().url, async (store) => {
      const stream = uniqueStream('own');
      await store.appendToStream(stream, [newEvent('own/one')]);
      expect(
        (await collect(store.readAll())).filter((event) => event.streamName === stream).map((event) => event.type),
      ).toEqual(['own/one']);
    });
  });

  it('many writer processes and connections at once: a live reader and a late catch-up reader see every event exactly once, in the final $all order', async () => {
    const prefix = `race-${process.pid}-${Date.now().toString(36)}`;
    const writers = Array.from({ length: 4 }, (_, writer) =>
      runChild(resolve(__dirname, 'append-loop-child.js'), [database().url, `${prefix}-w${writer}`, '6', '40', '8']),
    );
    await withStore(database().url, async (store) => {
      const ours = (event: RecordedEvent) => event.streamName.startsWith(prefix);
      const live = readInBackground(store.subscribeToAll({ fromPosition: 'start' }), ours);
      // This process appends too, on connections of its own.
      const local = Array.from({ length: 8 }, async (_, loop) => {
        for (let n = 0; n < 30; n += 1)
          await store.appendToStream(uniqueStream(`${prefix}-local-${loop % 3}`), [
            newEvent('race/local'),
            newEvent('race/local'),
          ]);
      });
      await new Promise((done) => setTimeout(done, 200));
      const lateReader = readInBackground(store.subscribeToAll({ fromPosition: 'start' }), ours);
      const codes = await Promise.all(writers.map((writer) => writer.exited));
      await Promise.all(local);
      expect({ codes, stderr: writers.map((writer) => writer.stderr()).join('') }).toEqual({
        codes: [0, 0, 0, 0],
        stderr: '',
      });
      const reported = writers.flatMap((writer) => writer.lines);
      const expected = reported.length + 8 * 30 * 2;
      const all = (await collect(store.readAll())).filter(ours);
      expect(all).toHaveLength(expected);
      await live.until((events) => events.length >= expected);
      await lateReader.until((events) => events.length >= expected);
      await new Promise((done) => setTimeout(done, 100));
      for (const reader of [live, lateReader]) {
        expect(ids(reader.events)).toEqual(ids(all));
        expect(strictlyAscending(reader.events)).toBe(true);
      }
      expect(new Set(ids(all)).size).toBe(expected);
      expect(new Set(reported).size).toBe(reported.length);
      const stored = new Set(ids(all));
      expect(reported.every((id) => stored.has(id as RecordedEvent['id']))).toBe(true);
      await live.stop();
      await lateReader.stop();
    });
  }, 120_000);
});
