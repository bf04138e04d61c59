import {
  type ChainBreak,
  type EventStore,
  type StreamHead,
  checkLink,
  eventDigest,
  finishChainWalk,
  startChainWalk,
} from '@teamlog/store';
import { shippedMigrations } from '@teamlog/store-postgres';
import { newEvent, uniqueStream } from '@teamlog/store-conformance';
import { rawQuery } from './raw-sql';
import { databaseForFile, withStore } from './test-database';

/* The PostgreSQL store's hash chains (docs/trust-boundary.md): written by append_group or the insert trigger, recomputed by the audit. */

const walk = async (store: EventStore): Promise<{ breaks: ChainBreak[]; heads: StreamHead[] }> => {
  const state = startChainWalk();
  for await (const link of store.readStoredLinks?.() ?? []) checkLink(state, link);
  return finishChainWalk(state);
};

const breaksIn = async (url: string, stream: string): Promise<Array<[string, bigint]>> =>
  withStore(url, async (store) =>
    (await walk(store)).breaks
      .filter((found) => found.streamName === stream)
      .map((found) => [found.code, found.revision]),
  );

describe('the PostgreSQL hash chain', () => {
  const database = databaseForFile('chain');

  it('computes in SQL exactly the digest eventDigest computes', async () => {
    await withStore(database().url, async () => undefined);
    const cases = [
      { previous: undefined, type: 'x/y', data: '{}', metadata: null },
      { previous: 'a'.repeat(64), type: 'tÿpe', data: '{"z":1,"a":"é\\u0000 ✓ 𝄞","n":2.5e10}', metadata: '{"time":5}' },
      { previous: 'b'.repeat(64), type: 'x', data: '"line\\nbreak"', metadata: '' },
    ];
    for (const { previous, ...bytes } of cases) {
      const [row] = await rawQuery<{ digest: string }>(
        database().url,
        'SELECT teamlog.event_digest($1, $2, $3, $4) AS digest',
        [previous ?? null, bytes.type, bytes.data, bytes.metadata],
      );
      expect(row?.digest).toBe(eventDigest(previous, bytes));
    }
  });

  it('chains every append and staged unit over the json text as stored', async () => {
    const stream = uniqueStream();
    const other = uniqueStream();
    await withStore(database().url, async (store) => {
      await store.appendToStream(stream, [newEvent('a/b', { z: 1, a: 'é' }), newEvent('a/b', { n: 2 })]);
      await Promise.all([
        store.appendToStream(stream, [newEvent('a/c', { n: 3 })]),
        store.appendToStream(other, [newEvent('a/c', { n: 0 })]),
      ]);
      const unit = store.stageAppends();
      unit.append(stream, [newEvent('a/d', { n: 4 }), { ...newEvent('a/d', { n: 5 }), metadata: { time: 5 } }], {
        expectedRevision: 2n,
      });
      await unit.commit();
      const { breaks, heads } = await walk(store);
      expect(breaks).toEqual([]);
      expect(heads.find((head) => head.streamName === stream)?.revision).toBe(4n);
    });
    const rows = await rawQuery<{ type: string; data: string; metadata: string | null; digest: string }>(
      database().url,
      'SELECT type, data::text AS data, metadata::text AS metadata, digest FROM teamlog.events WHERE stream_name = $1 ORDER BY revision',
      [stream],
    );
    let previous: string | undefined;
    for (const row of rows) {
      previous = eventDigest(previous, row);
      expect(row.digest).toBe(previous);
    }
  });

  it('chains the rows a group writes in append_group itself, the insert trigger left for rows inserted without a digest', async () => {
    const fresh = `${database().url}_no_trigger`;
    const name = fresh.slice(fresh.lastIndexOf('/') + 1);
    await rawQuery(database().url, `CREATE DATABASE ${name}`);
    try {
      const [stream, other] = [uniqueStream(), uniqueStream()];
      await withStore(fresh, async () => undefined);
      await rawQuery(fresh, 'ALTER TABLE teamlog.events DISABLE TRIGGER events_chain');
      await withStore(fresh, async (store) => {
        await store.appendToStream(stream, [newEvent('a/b', { z: 1, a: 'é' })]);
        // One group: two appends to one stream (the second chains from the first) and one to another.
        await Promise.all([
          store.appendToStream(stream, [newEvent('a/c', { n: 1 }), newEvent('a/c', { n: 2 })], {
            expectedRevision: 0n,
          }),
          store.appendToStream(other, [{ ...newEvent('a/c', { n: 0 }), metadata: { time: 5 } }]),
          store.appendToStream(stream, [newEvent('a/c', { n: 3 })], { expectedRevision: 2n }),
        ]);
        const { breaks, heads } = await walk(store);
        expect(breaks).toEqual([]);
        expect(heads.find((head) => head.streamName === stream)?.revision).toBe(3n);
      });
      const [missing] = await rawQuery<{ n: string }>(
        fresh,
        'SELECT count(*) AS n FROM teamlog.events WHERE digest IS NULL',
      );
      expect(missing?.n).toBe('0');
    } finally {
      await rawQuery(database().url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  });

  it('names the event whose stored text was changed, and the revision of one removed', async () => {
    const stream = uniqueStream();
    await withStore(database().url, (store) =>
      store.appendToStream(
        stream,
        [0, 1, 2, 3].map((n) => newEvent('a/b', { n })),
      ),
    );
    await rawQuery(
      database().url,
      `UPDATE teamlog.events SET data = '{"n":7}' WHERE stream_name = $1 AND revision = 1`,
      [stream],
    );
    expect(await breaksIn(database().url, stream)).toEqual([['chain-event-changed', 1n]]);
    await rawQuery(database().url, 'DELETE FROM teamlog.events WHERE stream_name = $1 AND revision = 0', [stream]);
    expect(await breaksIn(database().url, stream)).toEqual([['chain-event-removed', 0n]]);
  });

  it('gives the events of a database written before the chains their chains when it is migrated', async () => {
    const fresh = `${database().url}_chain_upgrade`;
    const name = fresh.slice(fresh.lastIndexOf('/') + 1);
    await rawQuery(database().url, `CREATE DATABASE ${name}`);
    try {
      const stream = uniqueStream();
      await withStore(
        fresh,
        (store) =>
          store.appendToStream(
            stream,
            [0, 1, 2].map((n) => newEvent('a/b', { n })),
          ),
        { migrations: shippedMigrations.slice(0, 1) },
      );
      await withStore(fresh, async (store) => {
        await store.appendToStream(stream, [newEvent('a/b', { n: 3 })]);
        const { breaks, heads } = await walk(store);
        expect(breaks).toEqual([]);
        expect(heads.map((head) => head.revision)).toEqual([3n]);
      });
    } finally {
      await rawQuery(database().url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  });
});
