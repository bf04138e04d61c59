import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { formatPosition, type EventStore, type StagedAppends, sessionStream } from '@teamlog/store';
import { type SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import type { SessionId } from '@teamlog/events';
import { type TempStore, openTempStore, realLogsRoot } from './real-logs';
import { type FileImportOptions, importSessionLog } from '../src';

/*
 * A file is imported whole (its header and every kept event) or not at all, whatever fails:
 * reading, a limit, staging a chunk, the second read, the commit. Each case injects one failure
 * and checks the store is unchanged: events, streams, the views' checkpoint and what they show.
 */

const packedChunks = join(
  realLogsRoot,
  'mirror-toninfo/examples/acp-agent/tests/snapshots/packed-chunks/session.jsonl',
);
const baseline = join(realLogsRoot, 'index-1394225561/snapshots/session/team-direct-inbox/session.v4.jsonl');

let temp: TempStore;
beforeEach(async () => {
  temp = await openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

interface Fault {
  /** Throw when staging the n-th batch (0: the header), or at commit. */
  readonly at: number | 'commit';
  /** Edit the file instead of throwing (the second read must notice). */
  readonly edit?: string;
  /** Hide that the unit may be staged while validating: the import validates first, then stages (two reads when over budget). */
  readonly validateFirst?: true;
}

class InjectedFault extends Error {
  override readonly name = 'InjectedFault';
}

const faultyStore = (inner: SqliteEventStore, fault: Fault): EventStore =>
  Object.create(inner, {
    stageAppends: {
      value: (): StagedAppends => {
        const unit = inner.stageAppends();
        let staged = 0;
        return {
          ...(fault.validateFirst === true || unit.stagesWhileValidating === undefined
            ? {}
            : { stagesWhileValidating: unit.stagesWhileValidating }),
          append: async (...args: Parameters<StagedAppends['append']>) => {
            if (staged === fault.at) {
              if (fault.edit === undefined) throw new InjectedFault(`staging batch ${staged}`);
              await fs.writeFile(
                fault.edit,
                (await fs.readFile(fault.edit, 'utf8')).replace('"text":"', '"text":"changed '),
              );
            }
            staged += 1;
            return unit.append(...args);
          },
          commit: async () => {
            if (fault.at === 'commit') {
              await unit.abort();
              throw new InjectedFault('commit');
            }
            return unit.commit();
          },
          abort: () => unit.abort(),
        };
      },
    },
  }) as EventStore;

/** What a reader of the store sees: events, streams, and the views with their checkpoint. */
const snapshot = async (store: SqliteEventStore) => {
  const projections = await sqliteProjections(store);
  const folded = await projections.catchUp();
  const views = projections.views();
  return {
    events: Number((store.database.prepare('SELECT COUNT(*) AS count FROM events').get() as { count: bigint }).count),
    streams: store.listStreams().map((stream) => `${stream.streamName}@${stream.lastRevision}`),
    checkpoint: projections.checkpoint === undefined ? null : formatPosition(projections.checkpoint),
    folded,
    sessions: views.state.sessions.size,
    teams: views.teams().map((team) => team.teamId),
  };
};

const deepEvent = (seq: number, depth: number, type = 'x/ignorable-extension'): string =>
  `${JSON.stringify({ type, seq, time: 1785730418718, ignorable: true, data: { nested: 'PLACEHOLDER' } }).replace('"PLACEHOLDER"', `${'['.repeat(depth)}1${']'.repeat(depth)}`)}\n`;

describe('an import is whole or nothing', () => {
  const cases: Array<[string, Fault, FileImportOptions]> = [
    ['staging the header fails', { at: 0 }, {}],
    ['staging the first chunk fails', { at: 1 }, { batchEvents: 10 }],
    ['staging a later chunk fails', { at: 3 }, { batchEvents: 10 }],
    ['the commit fails', { at: 'commit' }, { batchEvents: 10 }],
    ['staging a later chunk of a validated-first import fails', { at: 3, validateFirst: true }, { batchEvents: 10 }],
    [
      'staging a chunk of a two-pass import fails',
      { at: 2, validateFirst: true },
      { batchEvents: 10, singlePassBytes: 0 },
    ],
    [
      'the file changes before the second read',
      { at: 0, edit: '', validateFirst: true },
      { batchEvents: 10, singlePassBytes: 0 },
    ],
  ];

  it.each(cases)(
    'when %s, the store is unchanged and the repaired import equals a clean one',
    async (_name, fault, options) => {
      await importSessionLog(baseline, temp.store);
      const before = await snapshot(temp.store);
      const file = join(temp.directory, 'session.jsonl');
      await fs.copyFile(packedChunks, file);
      const result = await importSessionLog(
        file,
        faultyStore(temp.store, fault.edit === undefined ? fault : { ...fault, edit: file }),
        options,
      );
      expect(result.rejected).toBeDefined();
      expect(result.appended).toBe(0);
      expect(await snapshot(temp.store)).toEqual({ ...before, folded: 0 });

      await fs.copyFile(packedChunks, file);
      const repaired = await importSessionLog(file, temp.store, options);
      expect(repaired.rejected).toBeUndefined();
      expect(repaired.appended).toBe(repaired.events);
      const clean = await openTempStore();
      try {
        await importSessionLog(baseline, clean.store);
        const once = await importSessionLog(file, clean.store, options);
        const key = sessionStream(once.streamSessionId as SessionId);
        const read = async (store: EventStore) => {
          const events: unknown[] = [];
          for await (const event of store.readStream(key))
            events.push([event.revision, event.id, event.type, event.data, event.metadata]);
          return events;
        };
        expect(await read(temp.store)).toEqual(await read(clean.store));
      } finally {
        await clean.dispose();
      }
    },
  );

  it.each([
    ['an ignorable event nested 5,500 deep on the last line', 5_500, 'x/ignorable-extension'],
    ['a catalog event nested 12,000 deep', 12_000, 'turn/end'],
  ])('rejects %s as over the limit, naming line and field, writing nothing', async (_name, depth, type) => {
    const before = await snapshot(temp.store);
    const original = await fs.readFile(packedChunks, 'utf8');
    const lines = original.split('\n').filter((line) => line !== '');
    const file = join(temp.directory, 'session.jsonl');
    await fs.writeFile(file, `${original}${deepEvent(lines.length - 1, depth, type)}`);
    const result = await importSessionLog(file, temp.store);
    expect(result.rejected).toMatchObject({ reason: 'over-limit', line: lines.length + 1 });
    expect(result.rejected?.path).toMatch(/^data\.nested\[0\]/);
    expect(result.rejected?.message).toContain(`${file}:line ${lines.length + 1}: data.nested[0]`);
    expect(result.rejected?.message).toContain('nests deeper than 512 levels');
    expect(await snapshot(temp.store)).toEqual({ ...before, folded: 0 });
  });

  it('rejects a line over the size limit by line, writing nothing', async () => {
    const original = await fs.readFile(packedChunks, 'utf8');
    const lines = original.split('\n');
    lines[5] = lines[5]?.replace('"text":"', `"text":"${'z'.repeat(4096)}`) ?? '';
    const file = join(temp.directory, 'session.jsonl');
    await fs.writeFile(file, lines.join('\n'));
    const result = await importSessionLog(file, temp.store, { maxLineBytes: 2048 });
    expect(result.rejected).toMatchObject({ reason: 'over-limit', line: 6 });
    expect(result.rejected?.message).toMatch(/more than the reader's limit of 2048/);
    expect(temp.store.listStreams()).toEqual([]);
  });

  it('counts what this process wrote: two imports of one log at once append it once in total', async () => {
    const [a, b] = await Promise.all([
      importSessionLog(packedChunks, temp.store),
      importSessionLog(packedChunks, temp.store),
    ]);
    expect([a?.rejected, b?.rejected]).toEqual([undefined, undefined]);
    expect((a?.appended ?? 0) + (b?.appended ?? 0)).toBe(a?.events);
    const stored = Number(
      (temp.store.database.prepare('SELECT COUNT(*) AS count FROM events').get() as { count: bigint }).count,
    );
    expect(stored).toBe((a?.events ?? 0) + 1);
  });
});

describe('a header-only copy', () => {
  const headerOnly = async (source: string, file: string): Promise<void> => {
    const [header] = (await fs.readFile(source, 'utf8')).split('\n');
    await fs.mkdir(join(file, '..'), { recursive: true });
    await fs.writeFile(file, `${header}\n`);
  };

  it('stored first, does not poison the store: the full log with that placeholder id is imported after it', async () => {
    const directory = join(temp.directory, 'fixture');
    const file = join(directory, 'session.v4.jsonl');
    await headerOnly(baseline, file);
    const first = await importSessionLog(file, temp.store, { scope: 'fixture' });
    expect(first.rejected).toBeUndefined();
    expect(first).toMatchObject({ events: 0, normalised: false });
    await fs.copyFile(baseline, file);
    const full = await importSessionLog(file, temp.store, { scope: 'fixture' });
    expect(full.rejected).toBeUndefined();
    expect(full).toMatchObject({ normalised: true, appended: full.events });
  });

  it('imported after the full log, is a prefix of it: nothing appended, nothing refused', async () => {
    const directory = join(temp.directory, 'fixture');
    const file = join(directory, 'session.v4.jsonl');
    await fs.mkdir(directory, { recursive: true });
    await fs.copyFile(baseline, file);
    const full = await importSessionLog(file, temp.store, { scope: 'fixture' });
    await headerOnly(baseline, file);
    const copy = await importSessionLog(file, temp.store, { scope: 'fixture' });
    expect(copy.rejected).toBeUndefined();
    expect(copy).toMatchObject({ appended: 0, alreadyStored: full.events });
  });
});
