import type { RecordedEvent } from '@teamlog/store';
import { newEvent, uniqueStream } from '@teamlog/store-conformance';
import { rawQuery } from './raw-sql';
import { readInBackground } from './subscription-reader';
import { databaseForFile, withStore } from './test-database';

const terminateOtherConnections = (url: string): Promise<unknown> =>
  rawQuery(
    url,
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'teamlog%'",
  );

const types = (events: readonly RecordedEvent[]) => events.map((event) => event.type);

describe('PostgresEventStore live subscriptions', () => {
  const database = databaseForFile('subscriptions');

  it("wake on another process's commit through LISTEN/NOTIFY, without waiting for a poll", async () => {
    const stream = uniqueStream('notified');
    await withStore(
      database().url,
      async (subscriber) => {
        const reader = readInBackground(
          subscriber.subscribeToAll({ fromPosition: 'end' }),
          (event) => event.streamName === stream,
        );
        try {
          await new Promise((done) => setTimeout(done, 300)); // listening
          await withStore(database().url, (writer) => writer.appendToStream(stream, [newEvent('live/notified')]));
          await reader.until((events) => events.length === 1, 5_000);
          expect(types(reader.events)).toEqual(['live/notified']);
        } finally {
          await reader.stop();
        }
      },
      { pollIntervalMs: 120_000 },
    );
  });

  it('find commits that sent no notification by polling', async () => {
    const stream = uniqueStream('polled');
    const event = newEvent('live/polled');
    await withStore(
      database().url,
      async (subscriber) => {
        const reader = readInBackground(
          subscriber.subscribeToAll({ fromPosition: 'end' }),
          (recorded) => recorded.streamName === stream,
        );
        try {
          await new Promise((done) => setTimeout(done, 100));
          await rawQuery(
            database().url,
            "SELECT * FROM teamlog.append_group(ARRAY[$1], ARRAY['any'], ARRAY[1], ARRAY[now()], ARRAY[$2], ARRAY[$3], ARRAY['{}'::json], ARRAY[NULL::json])",
            [stream, event.id, event.type],
          );
          await reader.until((events) => events.length === 1, 5_000);
          expect(types(reader.events)).toEqual(['live/polled']);
        } finally {
          await reader.stop();
        }
      },
      { pollIntervalMs: 50 },
    );
  });

  it('carry on after their connections are dropped: reconnected, no event missed, none delivered twice', async () => {
    const stream = uniqueStream('dropped');
    const log: string[] = [];
    await withStore(
      database().url,
      async (subscriber) => {
        const reader = readInBackground(
          subscriber.subscribeToAll({ fromPosition: 'start' }),
          (event) => event.streamName === stream,
        );
        try {
          await withStore(database().url, async (writer) => {
            for (let n = 0; n < 60; n += 1) {
              await writer.appendToStream(stream, [newEvent(`drop/${n}`)]);
              if (n % 20 === 10) await terminateOtherConnections(database().url);
            }
          });
          await reader.until((events) => events.length >= 60, 20_000);
          await new Promise((done) => setTimeout(done, 200));
          expect(types(reader.events)).toEqual(Array.from({ length: 60 }, (_, n) => `drop/${n}`));
          expect(log.some((line) => /LISTEN connection ended/.test(line))).toBe(true);
          // The LISTEN connection is back: a new commit wakes the subscription without a poll.
          await withStore(database().url, (writer) => writer.appendToStream(stream, [newEvent('drop/after')]));
          await reader.until((events) => events.length === 61, 5_000);
        } finally {
          await reader.stop();
        }
      },
      { pollIntervalMs: 120_000, log: (line) => log.push(line) },
    );
  }, 60_000);

  it('stop delivering when unsubscribed', async () => {
    const stream = uniqueStream('stopped');
    await withStore(database().url, async (store) => {
      const reader = readInBackground(
        store.subscribeToAll({ fromPosition: 'end' }),
        (event) => event.streamName === stream,
      );
      await new Promise((done) => setTimeout(done, 100));
      await reader.stop();
      await store.appendToStream(stream, [newEvent()]);
      await new Promise((done) => setTimeout(done, 200));
      expect(reader.events).toEqual([]);
    });
  });
});
