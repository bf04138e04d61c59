import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { EventId, SessionId } from '@teamlog/events';
import { sessionStream } from '@teamlog/store';
import { expectedOutcomes, openTempStore, realNonSessionFiles, realSessionLogs, shortName } from './real-logs';
import { exportSession, importSessionLog, readSessionLog, sessionLogFileName } from '../src';

/** Every line of the file is JSON as JSON.stringify writes it (so a faithful export is byte-identical). */
const isCanonical = async (file: string): Promise<boolean> =>
  (await fs.readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .every((line) => JSON.stringify(JSON.parse(line)) === line);

const envelopeSortedLines = async (file: string): Promise<string[]> =>
  (await fs.readFile(file, 'utf8')).split('\n').map((line) => {
    if (line === '') return line;
    const value = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify(
      Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, value[key]]),
      ),
    );
  });

describe('round trip of every real session log: import into SQLite, export, read back', () => {
  it.each(realSessionLogs.map((file) => [shortName(file), file]))('%s', async (name, file) => {
    const temp = await openTempStore();
    try {
      const imported = await importSessionLog(file, temp.store);
      const expected = expectedOutcomes[name];
      if (expected?.rejected !== undefined) {
        expect(imported.rejected?.reason).toBe(expected.rejected);
        expect(temp.store.listStreams()).toEqual([]);
        return;
      }
      expect(imported.rejected).toBeUndefined();
      const original = await readSessionLog(file);
      expect(imported.events).toBe(original.summary.events);

      for (const compression of ['none', 'zstd'] as const) {
        const out = join(temp.directory, sessionLogFileName(original.head.formatVersion, compression));
        const exported = await exportSession(temp.store, imported.streamSessionId as SessionId, {
          file: out,
          compression,
          batchEvents: 64,
        });
        expect(exported).toMatchObject({
          formatVersion: original.head.formatVersion,
          events: original.summary.events,
          compression,
        });
        const back = await readSessionLog(out);
        expect(back.head.rawHeader).toEqual(original.head.rawHeader);
        expect(back.head.normalised).toBe(original.head.normalised);
        expect(back.head.compression).toBe(compression);
        expect(back.summary.recovery).toBeNull();
        expect(back.events.map((event) => event.event)).toEqual(original.events.map((event) => event.event));
      }
      if (original.summary.recovery === null && (await isCanonical(file))) {
        // Byte for byte, except that the order of envelope keys is the writer's, not the source's.
        const out = join(temp.directory, 'canonical.jsonl');
        await exportSession(temp.store, imported.streamSessionId as SessionId, { file: out });
        expect(await envelopeSortedLines(out)).toEqual(await envelopeSortedLines(file));
      }
    } finally {
      await temp.dispose();
    }
  });

  it.each(realNonSessionFiles.map((file) => [shortName(file), file]))(
    '%s is reported as not a session log and imports nothing',
    async (_name, file) => {
      const temp = await openTempStore();
      try {
        const result = await importSessionLog(file, temp.store);
        expect(result.rejected).toMatchObject({ reason: 'not-a-session-log', line: 1 });
        expect(result.rejected?.message).toContain(file);
        expect(temp.store.listStreams()).toEqual([]);
      } finally {
        await temp.dispose();
      }
    },
  );

  it("writes teamlog's own events as ignorable, so the harness's readers may skip them (docs/rules.md#teamlog-events-ignorable)", async () => {
    const temp = await openTempStore();
    try {
      const file = realSessionLogs.find((candidate) =>
        shortName(candidate).endsWith('team-direct-inbox/session.1.v4.jsonl'),
      ) as string;
      const imported = await importSessionLog(file, temp.store);
      const key = imported.streamSessionId as SessionId;
      await temp.store.appendToStream(sessionStream(key), [
        {
          id: '018f0000-0000-7000-8000-000000000001' as EventId,
          type: 'teamlog/session/resident',
          data: {},
          metadata: { time: 1790000000000 },
        },
      ]);
      const out = join(temp.directory, 'session.v4.jsonl');
      await exportSession(temp.store, key, { file: out });
      const lines = (await fs.readFile(out, 'utf8')).trim().split('\n');
      expect(JSON.parse(lines[lines.length - 1] as string)).toEqual({
        type: 'teamlog/session/resident',
        data: {},
        ignorable: true,
      });
      const back = await readSessionLog(out);
      expect(back.summary.events).toBe(imported.events + 1);
      expect(back.summary.unknownTypes).toEqual([]);
    } finally {
      await temp.dispose();
    }
  });
});
