import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { exportSession, importSessionLogs } from '../src';
import type { Compression } from '../src/session-file-name';
import { append, fixturesRoot, follow, linesOf, stopFollowers, streamLength } from './follow-support';
import { type TempStore, openTempStore } from './real-logs';

/* `teamlog export` of a session a later generation superseded (docs/rules.md#import-superseded). */

jest.setTimeout(90_000);

const v4Lead = join(fixturesRoot, 'synthetic/v4-direct/direct-lead/session.v4.jsonl');
const key = 'direct-lead' as SessionId;

let temp: TempStore;
let root: string;
beforeEach(async () => {
  temp = await openTempStore();
  root = join(temp.directory, 'sessions');
});
afterEach(async () => {
  await stopFollowers();
  await temp.dispose();
});

/** The V4 fixture with an event inserted at seq 0 (every later seq moved by one), as a migration renumbers it. */
const renumberedV4 = (): string => {
  const [header, ...events] = linesOf(v4Lead);
  const inserted = `${JSON.stringify({ type: 'acme/note', seq: 0, time: 1, data: {}, ignorable: true })}\n`;
  const renumbered = events.map((line) =>
    line.replace(/"seq":(\d+)/, (_all, seq: string) => `"seq":${Number(seq) + 1}`),
  );
  return [header, inserted, ...renumbered].join('');
};

/** A followed store that holds the V3 generation, then the supersession record and the renumbered V4. */
const followSupersession = async (): Promise<void> => {
  const directory = join(root, 'direct-lead');
  const v3 = linesOf(v4Lead).map((line, index) => (index === 0 ? line.replace('"version":4', '"version":3') : line));
  await append(join(directory, 'session.v3.jsonl'), v3.join(''));
  const following = await follow(root, temp.store);
  try {
    const lower = await streamLength(temp.store, sessionStream(key));
    await append(join(directory, 'session.v4.jsonl'), renumberedV4());
    await following.until(
      'the later generation is stored after the supersession record',
      async () => (await streamLength(temp.store, sessionStream(key))) === lower + 1 + v3.length,
    );
    expect(following.batches.flatMap((batch) => batch.warnings)).toEqual([]);
  } finally {
    await following.follower.stop();
  }
};

describe('exporting a superseded session', () => {
  it.each<Compression>(['none', 'zstd'])(
    'writes its last generation alone, byte for byte as a one-shot replay of the later file exports it (%s)',
    async (compression) => {
      await followSupersession();
      const oneShot = SqliteEventStore.open(join(temp.directory, 'one-shot.sqlite'));
      try {
        await importSessionLogs(root, oneShot);
        const [followed, reference] = [join(temp.directory, 'followed.out'), join(temp.directory, 'one-shot.out')];
        const exported = await exportSession(temp.store, key, { file: followed, compression, batchEvents: 7 });
        const expected = await exportSession(oneShot, key, { file: reference, compression, batchEvents: 7 });
        expect(exported).toMatchObject({ formatVersion: 4, events: expected.events, bytes: expected.bytes });
        expect(await fs.readFile(followed)).toEqual(await fs.readFile(reference));
        if (compression === 'none') expect(await fs.readFile(followed, 'utf8')).toBe(renumberedV4());
      } finally {
        await oneShot.close();
      }
    },
  );
});
