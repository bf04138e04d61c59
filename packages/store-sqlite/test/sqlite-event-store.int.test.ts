import Database from 'better-sqlite3';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { describeEventStoreConformance, collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import { tempStoreFile } from './temp-store-file';

describeEventStoreConformance('SqliteEventStore (file, WAL)', async () => {
  const { file, cleanup } = tempStoreFile();
  const store = SqliteEventStore.open(file);
  return {
    store,
    dispose: async () => {
      await store.close();
      cleanup();
    },
  };
});

describe('SqliteEventStore file', () => {
  it('runs in WAL mode with synchronous FULL so a returned append is durable', () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(Number(store.database.pragma('synchronous', { simple: true }))).toBe(2);
    void store.close();
    cleanup();
  });

  it('records the schema version of every applied migration', () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    const versions = store.database.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{
      version: bigint;
    }>;
    expect(versions.map((row) => Number(row.version))).toEqual([1, 2, 3, 4, 5]);
    expect(store.schemaVersion).toBe(5);
    void store.close();
    cleanup();
  });

  it('keeps events across close and reopen', async () => {
    const { file, cleanup } = tempStoreFile();
    const stream = uniqueStream();
    const first = SqliteEventStore.open(file);
    await first.appendToStream(stream, [newEvent('kept/one'), newEvent('kept/two')]);
    await first.close();
    const second = SqliteEventStore.open(file);
    expect((await collect(second.readStream(stream))).map((event) => event.type)).toEqual(['kept/one', 'kept/two']);
    expect(await second.streamRevision(stream)).toBe(1n);
    await second.close();
    cleanup();
  });

  it('refuses a file whose schema is newer than the code knows, and leaves it untouched', () => {
    const { file, cleanup } = tempStoreFile();
    void SqliteEventStore.open(file).close();
    const raw = new Database(file);
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, ?, 0)').run('from_the_future');
    raw.close();
    expect(() => SqliteEventStore.open(file)).toThrow(expect.objectContaining({ code: 'SchemaTooNew' }));
    expect(() => SqliteEventStore.open(file)).toThrow(/schema version 99 is newer than this teamlog knows \(5\)/);
    const check = new Database(file);
    expect(Number((check.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n)).toBe(6);
    check.close();
    cleanup();
  });

  it('upgrades a file written at schema version 1, keeping positions and filling the stream heads', async () => {
    const { file, cleanup } = tempStoreFile();
    const { applyMigrations, eventStoreMigrations } = await import('@teamlog/store-sqlite');
    const old = new Database(file);
    applyMigrations(
      old,
      eventStoreMigrations.filter((m) => m.version === 1),
      file,
    );
    old
      .prepare(
        "INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at) VALUES ('old-1', 0, '0190a000-0000-7000-8000-000000000001', 'x/y', '{}', NULL, 0)",
      )
      .run();
    old.close();
    const store = SqliteEventStore.open(file);
    expect(store.schemaVersion).toBe(5);
    expect(await store.streamRevision(uniqueStreamNamed('old-1'))).toBe(0n);
    const [kept] = await collect(store.readStream(uniqueStreamNamed('old-1')));
    expect(kept?.position).toEqual({ commit: 1n, prepare: 1n });
    const next = await store.appendToStream(uniqueStreamNamed('old-1'), [newEvent()]);
    expect(next.position.commit).toBeGreaterThan(1n);
    await store.close();
    cleanup();
  });
});

const uniqueStreamNamed = (name: string) => name as ReturnType<typeof uniqueStream>;
