import type { Client, Notification } from 'pg';
import { newEvent, uniqueStream } from '@teamlog/store-conformance';
import { appendedChannel, shippedMigrations } from '@teamlog/store-postgres';
import { parseAppendedPayload } from '../src/notified-heads';
import { rawClient, rawQuery } from './raw-sql';
import { databaseForFile, withStore } from './test-database';

/* From migration 3 a group's notification goes out with its commit, naming the store that wrote it. */

/** Wait (generously: a loaded machine) until `condition` holds, checking between turns of the event loop. */
const eventually = async (condition: () => boolean, limitMs = 60_000): Promise<void> => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const listening = async (url: string): Promise<{ readonly client: Client; readonly payloads: string[] }> => {
  const client = await rawClient(url);
  const payloads: string[] = [];
  client.on('notification', (message: Notification) => {
    if (message.channel === appendedChannel) payloads.push(message.payload ?? '');
  });
  await client.query(`LISTEN ${appendedChannel}`);
  return { client, payloads };
};

describe('the notification of a PostgreSQL append group', () => {
  const database = databaseForFile('append_notification');

  it('names the committed transaction, the writing store and the streams it appended to', async () => {
    const { client, payloads } = await listening(database().url);
    try {
      const [first, second, refused] = [uniqueStream('n'), uniqueStream('n'), uniqueStream('n')];
      const results = await withStore(
        database().url,
        (store) =>
          Promise.all([
            store.appendToStream(first, [newEvent()]),
            store.appendToStream(second, [newEvent(), newEvent()]),
            store.appendToStream(refused, [newEvent()], { expectedRevision: 3n }).catch(() => undefined),
          ]),
        { writerId: 'writer-one' },
      );
      await eventually(() => payloads.length > 0);
      const notice = parseAppendedPayload(payloads[0] as string);
      expect(notice).toEqual({
        transaction: results[0]?.position.commit,
        writer: 'writer-one',
        streams: [first, second].sort(),
      });
    } finally {
      await client.end();
    }
  });

  it('sends none for a group that appended nothing', async () => {
    const { client, payloads } = await listening(database().url);
    try {
      const stream = uniqueStream('none');
      await withStore(database().url, async (store) => {
        await expect(store.appendToStream(stream, [newEvent()], { expectedRevision: 0n })).rejects.toMatchObject({
          code: 'WrongExpectedVersion',
        });
        await store.appendToStream(stream, [newEvent()]);
      });
      await eventually(() => payloads.length > 0);
      expect(payloads).toHaveLength(1);
      expect(parseAppendedPayload(payloads[0] as string).streams).toEqual([stream]);
    } finally {
      await client.end();
    }
  });

  it('keeps appending, chained, to streams written before migration 3, and a store on the older schema still notifies', async () => {
    const fresh = `${database().url}_before_3`;
    const name = fresh.slice(fresh.lastIndexOf('/') + 1);
    await rawQuery(database().url, `CREATE DATABASE ${name}`);
    try {
      const stream = uniqueStream('upgrade');
      const older = { migrations: shippedMigrations.slice(0, 2) };
      const { client, payloads } = await listening(fresh);
      try {
        await withStore(
          fresh,
          async (store) => {
            expect(store.schemaVersion).toBe(2);
            await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
          },
          older,
        );
        // Closed only after its notification was sent: the older schema's store sends it after the commit.
        await eventually(() => payloads.length > 0);
        expect(parseAppendedPayload(payloads[0] as string).streams).toEqual([stream]);
      } finally {
        await client.end();
      }
      await withStore(fresh, async (store) => {
        expect(store.schemaVersion).toBe(shippedMigrations.length);
        const result = await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 1n });
        expect(result.nextExpectedRevision).toBe(3n);
        const links = [];
        for await (const link of store.readStoredLinks()) if (link.streamName === stream) links.push(link);
        expect(links.map((link) => link.revision)).toEqual([0n, 1n, 2n, 3n]);
      });
      const chained = await rawQuery<{ ok: boolean }>(
        fresh,
        `SELECT bool_and(e.digest = teamlog.event_digest(p.digest, e.type, e.data::text, e.metadata::text)) AS ok
           FROM teamlog.events e LEFT JOIN teamlog.events p ON p.stream_name = e.stream_name AND p.revision = e.revision - 1
          WHERE e.stream_name = $1`,
        [stream],
      );
      expect(chained[0]?.ok).toBe(true);
    } finally {
      await rawQuery(database().url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  });
});
