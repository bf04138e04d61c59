import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { collect, newEvent, uniqueStream } from '@teamlog/store-conformance';
import type { CommitParticipant, GlobalPosition, RecordedEvent } from '@teamlog/store';
import { SqliteEventStore, eventStoreMigrations } from '@teamlog/store-sqlite';
import { tempStoreFile } from './temp-store-file';

/* What opening a file does to it: a writer creates a store whole or refuses a file that is not one; a reader never writes. */

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('opening a SQLite store file', () => {
  it("refuses an empty file, a text file and another program's database before writing anything, to write or to read", () => {
    const { file, cleanup } = tempStoreFile();
    try {
      for (const [content, detail] of [
        [() => writeFileSync(file, ''), 'the file is empty'],
        [() => writeFileSync(file, 'hello, not a database\n'.repeat(100)), 'it is not a SQLite database'],
        [
          () => {
            writeFileSync(file, '');
            const db = new Database(file);
            db.exec('CREATE TABLE notes (text TEXT)');
            db.close();
          },
          'no schema_migrations table',
        ],
      ] as const) {
        content();
        const before = digest(file);
        for (const open of [() => SqliteEventStore.open(file), () => SqliteEventStore.openReadOnly(file)]) {
          const error = (() => {
            try {
              open();
              return undefined;
            } catch (caught) {
              return caught;
            }
          })();
          expect(error).toMatchObject({ code: 'NotATeamlogStore' });
          expect((error as Error).message).toContain(detail);
          expect(digest(file)).toBe(before);
        }
      }
    } finally {
      cleanup();
    }
  });

  it('refuses a newer schema before writing, and a reader refuses an older one rather than migrating it', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const older = SqliteEventStore.open(file, { migrations: eventStoreMigrations.slice(0, 2) });
      await older.close();
      const before = digest(file);
      expect(() => SqliteEventStore.openReadOnly(file)).toThrow(expect.objectContaining({ code: 'StoreNeedsUpgrade' }));
      expect(digest(file)).toBe(before);
      expect(() => SqliteEventStore.openReadOnly(file, { migrations: eventStoreMigrations.slice(0, 1) })).toThrow(
        expect.objectContaining({ code: 'SchemaTooNew' }),
      );
      expect(() => SqliteEventStore.open(file, { migrations: eventStoreMigrations.slice(0, 1) })).toThrow(
        expect.objectContaining({ code: 'SchemaTooNew' }),
      );
      expect(digest(file)).toBe(before);
    } finally {
      cleanup();
    }
  });

  it('creates a missing file whole: it is a complete store as soon as it exists', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const store = SqliteEventStore.open(file);
      const db = new Database(file, { readonly: true });
      expect(
        (db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number }).version,
      ).toBe(5);
      db.close();
      await store.close();
    } finally {
      cleanup();
    }
  });

  it('a read-only store reads what was written, and refuses to append or stage', async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const writer = SqliteEventStore.open(file);
      const stream = uniqueStream();
      await writer.appendToStream(stream, [newEvent(), newEvent()]);
      await writer.close();
      const before = digest(file);
      const reader = SqliteEventStore.openReadOnly(file);
      expect(reader.readOnly).toBe(true);
      expect(await collect(reader.readStream(stream))).toHaveLength(2);
      await expect(reader.appendToStream(stream, [newEvent()])).rejects.toMatchObject({ code: 'StoreReadOnly' });
      expect(() => reader.stageAppends()).toThrow(expect.objectContaining({ code: 'StoreReadOnly' }));
      await reader.close();
      expect(digest(file)).toBe(before);
    } finally {
      cleanup();
    }
  });

  it("stages a unit without taking the file's write lock: another connection appends meanwhile", async () => {
    const { file, cleanup } = tempStoreFile();
    try {
      const importer = SqliteEventStore.open(file);
      const other = SqliteEventStore.open(file, { busyTimeoutMs: 0 });
      const staged = uniqueStream('staged');
      const unit = importer.stageAppends();
      await unit.append(
        staged,
        Array.from({ length: 500 }, () => newEvent()),
        { expectedRevision: 'no_stream' },
      );
      await other.appendToStream(uniqueStream('other'), [newEvent()]);
      expect(await other.streamRevision(staged)).toBeUndefined();
      await unit.commit();
      expect(await other.streamRevision(staged)).toBe(499n);
      await other.close();
      await importer.close();
    } finally {
      cleanup();
    }
  });
});

describe('a unit and the commit participants (inline projections)', () => {
  const recordingParticipant = () => {
    const seen: RecordedEvent[] = [];
    let checkpoint: GlobalPosition | undefined;
    let committed = 0;
    const participant: CommitParticipant = {
      get checkpoint() {
        return checkpoint;
      },
      prepare: (events) => {
        for (const event of events) seen.push(event);
        checkpoint = events[events.length - 1]?.position ?? checkpoint;
      },
      committed: () => void (committed += 1),
      aborted: () => undefined,
    };
    return { participant, seen, committed: () => committed };
  };

  it.each([
    ['kept objects', 1024 * 1024],
    ['events read back page by page', 100],
  ])(
    'hands every event of the unit to a participant inside the commit (%s), as $all holds them',
    async (_name, kept) => {
      const { file, cleanup } = tempStoreFile();
      try {
        const store = SqliteEventStore.open(file, { maxKeptStagedBytes: kept });
        const recording = recordingParticipant();
        store.participate(recording.participant);
        const header = uniqueStream('header');
        const body = uniqueStream('body');
        const unit = store.stageAppends({ callerHoldsEvents: true });
        await unit.append(header, [newEvent('h')], { expectedRevision: 'no_stream' });
        for (let batch = 0; batch < 3; batch += 1) {
          await unit.append(
            body,
            Array.from({ length: 1_000 }, (_, n) => newEvent('b', { n: batch * 1_000 + n })),
            { expectedRevision: batch === 0 ? 'no_stream' : BigInt(batch * 1_000 - 1) },
          );
        }
        await unit.commit();
        const all = await collect(store.readAll());
        const comparable = (events: readonly RecordedEvent[]) =>
          events.map((event) => [event.streamName, event.revision, event.position, event.id, event.type, event.data]);
        expect(comparable(recording.seen)).toEqual(comparable(all));
        expect(recording.committed()).toBe(1);
        expect(store.knownRevision(body)?.revision).toBe(2_999n);
        await store.close();
      } finally {
        cleanup();
      }
    },
  );
});
