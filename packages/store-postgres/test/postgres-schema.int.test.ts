import { Client } from 'pg';
import { knownSchemaVersion, openPostgresStore, shippedMigrations } from '@teamlog/store-postgres';
import { collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import { databaseForFile, withStore } from './test-database';

const scalar = async (url: string, sql: string): Promise<unknown> => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return Object.values((await client.query(sql)).rows[0] ?? {})[0];
  } finally {
    await client.end();
  }
};

describe('PostgresEventStore schema', () => {
  const database = databaseForFile('schema');

  it('records every applied migration in teamlog.schema_migrations', async () => {
    const known = knownSchemaVersion(shippedMigrations);
    await withStore(database().url, async (store) => expect(store.schemaVersion).toBe(known));
    expect(Number(await scalar(database().url, 'SELECT max(version) FROM teamlog.schema_migrations'))).toBe(known);
  });

  it('migrates once when several processes open a new database at the same time (advisory lock)', async () => {
    const stores = await Promise.all(Array.from({ length: 6 }, () => openPostgresStore(database().url)));
    await Promise.all(stores.map((store) => store.close()));
    expect(Number(await scalar(database().url, 'SELECT count(*) FROM teamlog.schema_migrations'))).toBe(
      shippedMigrations.length,
    );
  });

  it('with create: false, refuses a database without the store and creates nothing there', async () => {
    const fresh = `${database().url}_empty`;
    const name = fresh.slice(fresh.lastIndexOf('/') + 1);
    await scalar(database().url, `CREATE DATABASE ${name}`);
    try {
      const error = await openPostgresStore(fresh, { create: false }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PostgresStoreNotFound' });
      expect(await scalar(fresh, "SELECT to_regnamespace('teamlog') IS NULL")).toBe(true);
      await withStore(
        database().url,
        async (store) => expect(store.schemaVersion).toBe(knownSchemaVersion(shippedMigrations)),
        { create: false },
      );
    } finally {
      await scalar(database().url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  });

  it('keeps events across close and reopen', async () => {
    const stream = uniqueStream();
    await withStore(database().url, (store) =>
      store.appendToStream(stream, [newEvent('kept/one'), newEvent('kept/two')]),
    );
    await withStore(database().url, async (store) => {
      expect((await collect(store.readStream(stream))).map((event) => event.type)).toEqual(['kept/one', 'kept/two']);
    });
  });

  it('refuses a database whose schema is newer than the code knows, before writing anything', async () => {
    await withStore(database().url, async () => undefined);
    const before = await scalar(database().url, 'SELECT count(*) FROM teamlog.schema_migrations');
    await scalar(
      database().url,
      "INSERT INTO teamlog.schema_migrations (version, name) VALUES (99, 'from_the_future')",
    );
    try {
      const error = await openPostgresStore(database().url).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PostgresSchemaTooNew' });
      expect(error).toMatchObject({
        fault: { databaseVersion: 99, knownVersion: knownSchemaVersion(shippedMigrations) },
      });
      await expect(openPostgresStore(database().url, { migrate: false })).rejects.toMatchObject({
        code: 'PostgresSchemaTooNew',
      });
      expect(Number(await scalar(database().url, 'SELECT count(*) FROM teamlog.schema_migrations'))).toBe(
        Number(before) + 1,
      );
    } finally {
      await scalar(database().url, 'DELETE FROM teamlog.schema_migrations WHERE version = 99');
    }
  });

  it('upgrades a database written by an older schema version (the newer migrations only)', async () => {
    const fresh = `${database().url}_upgrade`;
    const name = fresh.slice(fresh.lastIndexOf('/') + 1);
    await scalar(database().url, `CREATE DATABASE ${name}`);
    try {
      const first = shippedMigrations.slice(0, 1);
      const extra = { version: first.length + 1, name: 'extra_table', sql: 'CREATE TABLE teamlog.extra (n int)' };
      await withStore(fresh, async (store) => expect(store.schemaVersion).toBe(1), { migrations: first });
      await withStore(fresh, async (store) => expect(store.schemaVersion).toBe(2), { migrations: [...first, extra] });
      expect(await scalar(fresh, "SELECT to_regclass('teamlog.extra') IS NOT NULL")).toBe(true);
    } finally {
      await scalar(database().url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  });

  it('keeps data and metadata JSON as written (json, not jsonb: key order and unicode escapes)', async () => {
    const stream = uniqueStream();
    const data = { z: 1, a: { y: 'é\u0000', b: [1, 2.5e10] } };
    await withStore(database().url, async (store) => {
      await store.appendToStream(stream, [
        { ...newEvent('json/kept', data), metadata: { time: 5, causationId: null } },
      ]);
      const [event] = await collect(store.readStream(stream));
      expect(JSON.stringify(event?.data)).toBe(JSON.stringify(data));
      expect(event?.metadata).toEqual({ time: 5, causationId: null });
    });
  });
});
