import { newEvent, uniqueStream } from '@teamlog/store-conformance';
import { shippedMigrations } from '@teamlog/store-postgres';
import { rawQuery } from './raw-sql';
import { databaseForFile, withStore } from './test-database';

/* Migration 3 replaces append_group (one INSERT per group) under data written by the older one. */

describe('teamlog.append_group after migration 3', () => {
  const database = databaseForFile('append_group_migration');

  it('keeps appending, chained, to streams written before migration 3, and answers their retries as stored', async () => {
    const fresh = `${database().url}_before_3`;
    const name = fresh.slice(fresh.lastIndexOf('/') + 1);
    await rawQuery(database().url, `CREATE DATABASE ${name}`);
    try {
      const stream = uniqueStream('upgrade');
      const written = [newEvent(), newEvent()];
      await withStore(
        fresh,
        async (store) => {
          expect(store.schemaVersion).toBe(2);
          await store.appendToStream(stream, written, { expectedRevision: 'no_stream' });
        },
        { migrations: shippedMigrations.slice(0, 2) },
      );
      await withStore(fresh, async (store) => {
        expect(store.schemaVersion).toBe(shippedMigrations.length);
        const retried = await store.appendToStream(stream, written, { expectedRevision: 'no_stream' });
        expect(retried.nextExpectedRevision).toBe(1n);
        const result = await store.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 1n });
        expect(result.nextExpectedRevision).toBe(3n);
      });
      const chained = await rawQuery<{ events: string; ok: boolean }>(
        fresh,
        `SELECT count(*) AS events, bool_and(e.digest = teamlog.event_digest(p.digest, e.type, e.data::text, e.metadata::text)) AS ok
           FROM teamlog.events e LEFT JOIN teamlog.events p ON p.stream_name = e.stream_name AND p.revision = e.revision - 1
          WHERE e.stream_name = $1`,
        [stream],
      );
      expect(chained[0]).toEqual({ events: '4', ok: true });
    } finally {
      await rawQuery(database().url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  });
});
