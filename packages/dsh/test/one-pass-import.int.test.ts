import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { type EventStore, type StagedAppends, formatPosition } from '@teamlog/store';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { type TempStore, openTempStore, realLogsRoot } from './real-logs';
import { importSessionLog } from '../src';

/*
 * On SQLite an import is one read (docs/rules.md#one-pass-import): each chunk is staged as it is
 * validated and the inline views fold it at once; a rejection anywhere drops both.
 */

const baseline = join(realLogsRoot, 'index-1394225561/snapshots/session/team-direct-inbox/session.v4.jsonl');

let temp: TempStore;
beforeEach(async () => {
  temp = await openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

/** The store, with each unit's staged batches counted and a hook run just before each unit's commit. */
const observedStore = (
  inner: SqliteEventStore,
  seen: { batches: number },
  beforeCommit: () => Promise<void> = async () => undefined,
): EventStore =>
  Object.create(inner, {
    stageAppends: {
      value: (): StagedAppends => {
        const unit = inner.stageAppends();
        return {
          ...(unit.stagesWhileValidating === undefined ? {} : { stagesWhileValidating: unit.stagesWhileValidating }),
          append: async (...args: Parameters<StagedAppends['append']>) => {
            seen.batches += 1;
            return unit.append(...args);
          },
          commit: async () => {
            await beforeCommit();
            return unit.commit();
          },
          abort: () => unit.abort(),
        };
      },
    },
  }) as EventStore;

/** What the inline views show and the store holds, as JSON. */
const shown = (store: SqliteEventStore, projections: Awaited<ReturnType<typeof sqliteProjections>>) => {
  const views = projections.views();
  const count = (sql: string) => Number((store.database.prepare(sql).get() as { count: bigint }).count);
  return {
    events: count('SELECT COUNT(*) AS count FROM events'),
    checkpoint: projections.checkpoint === undefined ? null : formatPosition(projections.checkpoint),
    replay: JSON.parse(JSON.stringify(views.replay())) as unknown,
    held: count('SELECT COUNT(*) AS count FROM projection_held_messages'),
    sessions: count('SELECT COUNT(*) AS count FROM projection_sessions'),
  };
};

/** `targetBytes` past the reader's 1 MiB read buffer, so chunks are staged before the last line is read. */
const syntheticLog = async (name: string, sessionId: string, targetBytes = 60_000): Promise<string> => {
  const file = join(temp.directory, name);
  await generateSyntheticLog({ file, targetBytes, formatVersion: 4, sessionId });
  return file;
};

describe('an import into SQLite in one read', () => {
  it.each([
    ['kept in memory until the commit', undefined],
    ['written in place under a held transaction', { maxBufferedUnitBytes: 64 * 1024 }],
    [
      'written by the writer thread under its held transaction',
      { maxBufferedUnitBytes: 64 * 1024, writerThread: true },
    ],
  ])(
    'rejected at its last line after many chunks (%s), leaves no event, no view change and nothing open',
    async (_, options) => {
      if (options !== undefined) {
        await temp.dispose();
        temp = await openTempStore(options);
      }
      const projections = await sqliteProjections(temp.store);
      const detach = projections.foldInline();
      try {
        expect((await importSessionLog(baseline, temp.store)).rejected).toBeUndefined();
        const before = shown(temp.store, projections);
        const file = await syntheticLog('session.v4.jsonl', 'synthetic-0000-4000-8000-00000000000a', 3 * 1024 * 1024);
        const lines = (await fs.readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
        const last = JSON.parse(lines[lines.length - 1] as string) as { seq: number; time: number };
        await fs.appendFile(
          file,
          `${JSON.stringify({ type: 'turn/start', seq: last.seq + 1, time: last.time, data: { turn: 'one' } })}\n`,
        );
        const seen = { batches: 0 };

        const result = await importSessionLog(file, observedStore(temp.store, seen), { batchEvents: 500 });

        expect(result.rejected).toMatchObject({ line: lines.length + 1 });
        expect(result.rejected?.message).toContain(`line ${lines.length + 1}: data.turn`);
        // Staged in the same read that found the bad line: the header and every chunk before it.
        expect(seen.batches).toBeGreaterThan(10);
        expect(shown(temp.store, projections)).toEqual(before);
        expect(temp.store.database.inTransaction).toBe(false);
        // The connection is free again: a later import commits.
        const next = await syntheticLog('next.v4.jsonl', 'synthetic-0000-4000-8000-00000000000e');
        expect((await importSessionLog(next, temp.store)).rejected).toBeUndefined();
      } finally {
        detach?.();
      }
    },
  );

  it('written in place and rejected as the first unit of its views, leaves them able to fold and commit the next import', async () => {
    await temp.dispose();
    // Every unit past its budget from its first batch: the views' first set-aside is inside the unit's transaction.
    temp = await openTempStore({ maxBufferedUnitBytes: 1 });
    const projections = await sqliteProjections(temp.store);
    const detach = projections.foldInline();
    try {
      const rejected = join(temp.directory, 'session.v4.jsonl');
      const lines = (await fs.readFile(baseline, 'utf8')).split('\n').filter((line) => line !== '');
      const bad = { type: 'turn/start', data: { turn: 'one' } };
      await fs.writeFile(rejected, `${[...lines, JSON.stringify(bad)].join('\n')}\n`);
      expect((await importSessionLog(rejected, temp.store, { batchEvents: 20 })).rejected).toMatchObject({
        line: lines.length + 1,
      });

      expect((await importSessionLog(baseline, temp.store, { batchEvents: 20 })).rejected).toBeUndefined();

      const inline = shown(temp.store, projections);
      expect(inline.held).toBeGreaterThan(0);
      const rebuilt = await sqliteProjections(temp.store);
      await rebuilt.rebuild();
      expect(inline).toEqual(shown(temp.store, rebuilt));
    } finally {
      detach?.();
    }
  });

  it('folds each chunk as staged, and the views equal a rebuild, also when another connection commits before the unit', async () => {
    const projections = await sqliteProjections(temp.store);
    const detach = projections.foldInline();
    const other = SqliteEventStore.open(temp.store.file);
    try {
      const first = await syntheticLog('first.v4.jsonl', 'synthetic-0000-4000-8000-00000000000b');
      const second = await syntheticLog('second.v4.jsonl', 'synthetic-0000-4000-8000-00000000000c');
      const third = await syntheticLog('third.v4.jsonl', 'synthetic-0000-4000-8000-00000000000d');
      expect((await importSessionLog(first, temp.store, { batchEvents: 20 })).rejected).toBeUndefined();
      // The second file's events were folded at the positions the copy would give; the other
      // connection's commit moves them, so the views fold the unit again, read back.
      const seen = { batches: 0 };
      const interleaved = observedStore(temp.store, seen, async () => {
        expect((await importSessionLog(third, other, { batchEvents: 20 })).rejected).toBeUndefined();
      });
      expect((await importSessionLog(second, interleaved, { batchEvents: 20 })).rejected).toBeUndefined();
      expect(seen.batches).toBeGreaterThan(10);

      const inline = shown(temp.store, projections);
      const rebuilt = await sqliteProjections(other);
      await rebuilt.rebuild();
      expect(inline).toEqual(shown(other, rebuilt));
      expect(inline.sessions).toBe(3);
      expect(inline.checkpoint).toBe(
        formatPosition({
          commit: BigInt(inline.events),
          prepare: BigInt(inline.events),
        }),
      );
    } finally {
      detach?.();
      await other.close();
    }
  });
});
