import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { craftedRoot } from './crafted-fixtures';
import {
  expectedOutcomes,
  naiveEventCount,
  openTempStore,
  realNonSessionFiles,
  realSessionLogs,
  shortName,
} from './real-logs';
import { SessionLogRejected, discoverSessionLogs, openSessionLog, readSessionLog, scanSessionLog } from '../src';
import { headReadChunkBytes } from '../src/session-log-reader';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';

const rejectionOf = async (file: string): Promise<SessionLogRejected> => {
  try {
    await scanSessionLog(file);
  } catch (error) {
    if (error instanceof SessionLogRejected) return error;
    throw error;
  }
  throw new Error(`${file} was accepted`);
};

const crafted = (name: string): string => join(craftedRoot, name);

describe('reading the real logs', () => {
  it('finds the real session logs and the non-session files to read', () => {
    expect(realSessionLogs.length).toBeGreaterThan(150);
    expect(realNonSessionFiles.length).toBe(13);
  });

  it.each(realSessionLogs.map((file) => [shortName(file), file]))('reads %s', async (name, file) => {
    const expected = expectedOutcomes[name];
    if (expected?.rejected !== undefined) {
      expect((await rejectionOf(file)).reason).toBe(expected.rejected);
      return;
    }
    const { summary, events } = await readSessionLog(file);
    if (expected?.recovery !== undefined) {
      expect(summary.recovery).toMatchObject(expected.recovery);
      return;
    }
    expect(summary.recovery).toBeNull();
    expect(summary.events).toBe(naiveEventCount(file));
    expect(events.map((event) => event.event.seq)).toEqual(events.map((_, index) => index));
    expect(summary.unknownTypes).toEqual([]);
  });

  it.each(realNonSessionFiles.map((file) => [shortName(file), file]))(
    'reports %s as not a session log',
    async (_name, file) => {
      const error = await rejectionOf(file);
      expect(error).toMatchObject({ name: 'NotASessionLog', reason: 'not-a-session-log' });
      expect(error.message).toContain('not a session log');
    },
  );

  it('reads the old headers without version or delegationDepth', async () => {
    const old = realSessionLogs.filter((file) => shortName(file).includes('apps/web/tests/snapshots/steering/'));
    const { head } = await readSessionLog(old[0] as string);
    expect(head.formatVersion).toBe(0);
  });

  it('reports the inherited count of seeded forks (V0 seedLength)', async () => {
    const fork = realSessionLogs.find((file) =>
      shortName(file).endsWith('subagent-fork-in-process/session.1.jsonl'),
    ) as string;
    const summary = await scanSessionLog(fork);
    expect(summary.inheritedCount).toBe(42);
    expect(summary.head.header.isSeeded).toBe(true);
  });

  it('reads normalised V3/V4 snapshot fixtures with seqs given by position', async () => {
    const lead = realSessionLogs.find((file) =>
      shortName(file).endsWith('team-direct-inbox/session.v4.jsonl'),
    ) as string;
    const { head, events } = await readSessionLog(lead);
    expect(head).toMatchObject({ formatVersion: 4, normalised: true, sessionId: '{{session:1}}' });
    expect(events.filter((event) => event.event.type === 'team/member')).toHaveLength(2);
  });

  it('keeps the legacy V0 user/message without id as a recognised shape', async () => {
    const file = realSessionLogs.find((candidate) =>
      shortName(candidate).endsWith('apps/web/tests/snapshots/steering/session.jsonl'),
    ) as string;
    const { summary, events } = await readSessionLog(file);
    expect(summary.legacyShapes).toBeGreaterThan(0);
    expect(events.find((event) => event.event.type === 'user/message')?.eventClass).toBe('recognised');
  });
});

describe('reading the crafted recovery cases', () => {
  it('drops a torn last line and says which line', async () => {
    const summary = await scanSessionLog(crafted('torn-tail/session.jsonl'));
    expect(summary.events).toBe(5);
    expect(summary.recovery).toMatchObject({ reason: 'torn-tail', line: 7, keptEvents: 5 });
  });

  it('keeps the prefix before a seq gap when no turn/end follows', async () => {
    const summary = await scanSessionLog(crafted('gap-no-turn-end/session.jsonl'));
    expect(summary.recovery).toMatchObject({ reason: 'seq-gap', line: 8, keptEvents: 6, droppedLines: 2 });
  });

  it('rejects the whole file when a turn/end follows a seq gap', async () => {
    const error = await rejectionOf(crafted('gap-then-turn-end/session.jsonl'));
    expect(error.reason).toBe('damaged-history');
    expect(error.line).toBe(8);
    expect(error.message).toMatch(
      /gap-then-turn-end\/session\.jsonl:line 8: seq gap: expected seq 6, got 7; a turn\/end follows at line 9/,
    );
  });

  it('rejects the whole file when a turn/end follows an unparsable line', async () => {
    const error = await rejectionOf(crafted('unparsable-then-turn-end/session.jsonl'));
    expect(error).toMatchObject({ reason: 'damaged-history', line: 7 });
  });

  it('reports a newer generation as needing a newer reader', async () => {
    const error = await rejectionOf(crafted('newer-version/session.v5.jsonl'));
    expect(error).toBeInstanceOf(SessionLogRejected);
    expect(error.name).toBe('NewerFormatVersion');
  });

  it('expands V1 packed rows and ranges and reports the seedLength inheritance', async () => {
    const { summary, events } = await readSessionLog(crafted('packed-seeded-v1/session.v1.jsonl'));
    expect(summary).toMatchObject({ events: 14, inheritedCount: 2, recovery: null });
    expect(events.filter((event) => event.event.packed !== undefined).map((event) => event.event.seq)).toEqual([
      3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(events.find((event) => event.event.type === 'assistant/message')?.event.sourceEventSeqs).toEqual([
      3, 4, 5, 6, 8, 9,
    ]);
    expect(events[6]?.event.time).toBe(1785000000203);
  });

  it('stops after maxEvents even inside a packed row', async () => {
    const reader = await openSessionLog(crafted('packed-seeded-v1/session.v1.jsonl'));
    const seen: number[] = [];
    const summary = await reader.scan(
      (event) => {
        seen.push(event.event.seq);
      },
      { maxEvents: 5 },
    );
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(summary).toMatchObject({ events: 5, stoppedEarly: true, recovery: null });
  });

  it('takes the inherited cut of a V2+ fork from the last inherited end-seed', async () => {
    expect((await scanSessionLog(crafted('seeded-v2/session.v2.jsonl'))).inheritedCount).toBe(3);
  });

  it('classes every event of a log with hundreds of distinct types, past the types a read remembers', async () => {
    const directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-many-types-'));
    try {
      const file = join(directory, 'session.v4.jsonl');
      const header = {
        type: 'session',
        version: 4,
        id: 'many-types',
        createdAt: 1785000000000,
        cwd: '/m',
        isSeeded: false,
        delegationDepth: 0,
      };
      const types = Array.from({ length: 600 }, (_, index) =>
        index % 2 === 0 ? `plugin:acme/t${index}` : 'turn/start',
      );
      const lines = types.map((type, seq) => ({ type, seq, time: 1785000000100 + seq, data: { turn: seq } }));
      await fs.writeFile(file, [header, ...lines].map((line) => `${JSON.stringify(line)}\n`).join(''));
      const { summary, events } = await readSessionLog(file);
      expect(summary.unknownTypes).toHaveLength(300);
      expect(events.map((event) => event.eventClass)).toEqual(
        types.map((type) => (type === 'turn/start' ? 'catalog' : 'unknown')),
      );
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });

  it('flags unknown types that are not ignorable and keeps unknown envelope keys', async () => {
    const { summary, events } = await readSessionLog(crafted('unknown-types/session.v4.jsonl'));
    expect(summary.unknownTypes).toEqual(['plugin:acme/telemetry']);
    expect(events.map((event) => event.eventClass)).toEqual(['catalog', 'unknown', 'unknown', 'catalog']);
    expect(events[3]?.event.extra).toEqual({ writer: 'acme' });
  });

  it('refuses a catalog event whose payload fails its codec, with file, line and field path', async () => {
    const error = await rejectionOf(crafted('invalid-event/session.v3.jsonl'));
    expect(error.reason).toBe('invalid-event');
    expect(error.line).toBe(3);
    expect(error.path).toBe('data.step');
    expect(error.message).toMatch(
      /invalid-event\/session\.v3\.jsonl:line 3: data\.step: expected NonNegativeInteger, got "two"/,
    );
  });

  it('keeps a Team record that does not decode and reports it, so the team view can fail and the log still opens', async () => {
    const { summary, events } = await readSessionLog(crafted('invalid-team-record/session.v3.jsonl'));
    expect(events.map((event) => event.event.type)).toEqual(['team/member']);
    expect(summary.invalidTeamRecords).toHaveLength(1);
    expect(summary.invalidTeamRecords[0]?.message).toMatch(
      /invalid-team-record\/session\.v3\.jsonl:line 2: data\.member\.phase: expected MemberPhase, got 7/,
    );
  });

  it('keeps the complete records of an incomplete last zstd frame', async () => {
    const summary = await scanSessionLog(crafted('zstd-incomplete-frame/session.jsonl.zstd'));
    expect(summary.head.compression).toBe('zstd');
    expect(summary.recovery?.reason).toBe('incomplete-frame');
    expect(summary.events).toBeGreaterThan(5);
    expect(summary.events).toBeLessThan(4005);
  });

  it('rejects a zstd file whose complete frame fails its checksum', async () => {
    const error = await rejectionOf(crafted('zstd-corrupt-checksum/session.jsonl.zstd'));
    expect(error.reason).toBe('corrupt-frame');
    expect(error.message).toMatch(/checksum mismatch/);
  });

  it('reads frames written by the zstd command-line tool', async () => {
    const { head, events, summary } = await readSessionLog(crafted('zstd-cli/session.v4.jsonl.zstd'));
    expect(head.formatVersion).toBe(4);
    expect(events.map((event) => event.event.type)).toEqual(['turn/start', 'user/message', 'turn/end']);
    expect(summary.recovery).toBeNull();
  });

  it('reads a single file whatever its name', async () => {
    const temp = await openTempStore();
    try {
      const copy = join(temp.directory, 'whatever.log');
      await fs.copyFile(crafted('packed-seeded-v1/session.v1.jsonl'), copy);
      expect((await scanSessionLog(copy)).events).toBe(14);
    } finally {
      await temp.dispose();
    }
  });
});

describe('discovering session logs', () => {
  it('picks the highest generation of each log in a directory and walks sub-directories', async () => {
    const temp = await openTempStore();
    try {
      const session = join(temp.directory, 'root', '--proj--', 'abc');
      await fs.mkdir(join(session, 'child'), { recursive: true });
      for (const name of [
        'session.jsonl',
        'session.v1.jsonl',
        'session.v2.jsonl',
        'session.lock',
        'session.1.jsonl',
        'child/session.v3.jsonl.zstd',
      ]) {
        await fs.writeFile(join(session, name), '');
      }
      const found = [];
      for await (const log of discoverSessionLogs(join(temp.directory, 'root'))) found.push(log);
      expect(found.map((log) => [log.file.slice(session.length + 1), log.generation])).toEqual([
        ['session.v2.jsonl', 2],
        ['session.1.jsonl', 0],
        ['child/session.v3.jsonl.zstd', 3],
      ]);
      expect(found[0]?.olderGenerations.map((file) => file.slice(session.length + 1))).toEqual([
        'session.v1.jsonl',
        'session.jsonl',
      ]);
    } finally {
      await temp.dispose();
    }
  });
});

describe('streaming', () => {
  const openFiles = async (): Promise<number> => (await fs.readdir('/proc/self/fd')).length;

  it('releases the file when a reader stops early (header only, maxEvents), raw and zstd', async () => {
    const before = await openFiles();
    for (let round = 0; round < 20; round += 1) {
      await openSessionLog(crafted('zstd-incomplete-frame/session.jsonl.zstd'));
      await openSessionLog(crafted('torn-tail/session.jsonl'));
      await (await openSessionLog(crafted('zstd-incomplete-frame/session.jsonl.zstd'))).scan(undefined, {
        maxEvents: 3,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await openFiles()).toBeLessThanOrEqual(before + 2);
  });

  /** The bytes every file handle opened while `work` runs is asked to read. */
  const bytesAskedDuring = async (work: () => Promise<unknown>): Promise<number> => {
    let asked = 0;
    const open = fs.open.bind(fs);
    const spy = jest.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
      const handle = await open(...args);
      const read = handle.read.bind(handle) as (...readArgs: unknown[]) => ReturnType<typeof handle.read>;
      Object.assign(handle, {
        read: (...readArgs: unknown[]) => {
          asked += typeof readArgs[2] === 'number' ? readArgs[2] : 0;
          return read(...readArgs);
        },
      });
      return handle;
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return asked;
  };

  it('opened for its head, reads the first lines of a long log, not a whole read chunk and the one after it', async () => {
    const temp = await openTempStore();
    try {
      const generated = await generateSyntheticLog({
        file: join(temp.directory, 'session.jsonl'),
        targetBytes: 4 * 1024 * 1024,
      });
      const asked = await bytesAskedDuring(() => openSessionLog(generated.file));
      expect(asked).toBeGreaterThan(0);
      expect(asked).toBeLessThanOrEqual(2 * headReadChunkBytes);
      const summary = await scanSessionLog(generated.file);
      expect(summary.events).toBe(generated.events);
    } finally {
      await temp.dispose();
    }
  });

  it.each([
    ['normalised, its event line without seq', {}, true],
    ['not normalised, its event line with a seq', { seq: 0 }, false],
  ])(
    'opened for its head, decides a log %s from an event line longer than a head read',
    async (_name, fields, normalised) => {
      const temp = await openTempStore();
      try {
        const header = (await fs.readFile(crafted('torn-tail/session.jsonl'), 'utf8')).split('\n')[0] as string;
        const file = join(temp.directory, 'session.jsonl');
        const long = { type: 'user/message', ...fields, padding: 'x'.repeat(3 * headReadChunkBytes) };
        await fs.writeFile(file, `${header}\n${JSON.stringify(long)}\n`);
        const { head } = await openSessionLog(file);
        expect(head).toMatchObject({ normalised, headerOnly: false });
      } finally {
        await temp.dispose();
      }
    },
  );

  it('holds about one line at a time: the peak buffer is bounded by the largest line, not the file', async () => {
    const temp = await openTempStore();
    try {
      const generated = await generateSyntheticLog({
        file: join(temp.directory, 'session.jsonl'),
        targetBytes: 12 * 1024 * 1024,
        largeLineBytes: 2 * 1024 * 1024,
      });
      const summary = await scanSessionLog(generated.file);
      expect(summary.events).toBe(generated.events);
      expect(summary.recovery).toBeNull();
      expect(summary.largestLineBytes).toBeGreaterThan(2 * 1024 * 1024);
      expect(summary.peakBufferedBytes).toBeLessThanOrEqual(summary.largestLineBytes + 1024 * 1024);
      expect(summary.peakBufferedBytes * 4).toBeLessThan(generated.bytes);
    } finally {
      await temp.dispose();
    }
  });
});
