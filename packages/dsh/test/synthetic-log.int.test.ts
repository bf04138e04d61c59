import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { openTempStore } from './real-logs';
import { exportSession, importSessionLog, readSessionLog, scanSessionLog } from '../src';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';

describe('synthetic large-log generator (for the benchmark)', () => {
  it.each([
    [0, 'none'],
    [0, 'zstd'],
    [4, 'none'],
    [4, 'zstd'],
  ] as const)(
    'writes a valid V%s log (%s) of the requested size that reads back whole',
    async (formatVersion, compression) => {
      const temp = await openTempStore();
      try {
        const file = join(
          temp.directory,
          `session${formatVersion === 0 ? '' : '.v4'}.jsonl${compression === 'zstd' ? '.zstd' : ''}`,
        );
        const generated = await generateSyntheticLog({
          file,
          targetBytes: 1024 * 1024,
          formatVersion,
          compression,
          batchBytes: 64 * 1024,
        });
        expect(generated.bytes).toBeGreaterThanOrEqual(1024 * 1024);
        if (compression === 'zstd') expect(generated.fileBytes).toBeLessThan(generated.bytes);
        const summary = await scanSessionLog(file);
        expect(summary).toMatchObject({ events: generated.events, recovery: null, unknownTypes: [] });
        expect(summary.head.formatVersion).toBe(formatVersion);
      } finally {
        await temp.dispose();
      }
    },
  );

  it('imports and exports a generated log in chunks, byte for byte', async () => {
    const temp = await openTempStore();
    try {
      const file = join(temp.directory, 'session.jsonl');
      const generated = await generateSyntheticLog({ file, targetBytes: 512 * 1024 });
      const result = await importSessionLog(file, temp.store, { batchEvents: 1000 });
      expect(result).toMatchObject({ events: generated.events, appended: generated.events });
      const out = join(temp.directory, 'export.jsonl');
      await exportSession(temp.store, result.streamSessionId as SessionId, { file: out });
      const [a, b] = await Promise.all([readSessionLog(file), readSessionLog(out)]);
      expect(b.events.map((event) => event.event)).toEqual(a.events.map((event) => event.event));
      const { readFile } = await import('node:fs/promises');
      expect(await readFile(out, 'utf8')).toBe(await readFile(file, 'utf8'));
    } finally {
      await temp.dispose();
    }
  });
});
