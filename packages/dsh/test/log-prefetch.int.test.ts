import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { prefetchLog } from '../src/log-prefetch';
import { importPrefetchedLog, importSessionLog, prefetchOptionsOf } from '../src/session-importer';
import { type TempStore, openTempStore, realSessionLogs } from './real-logs';

describe('an import of a log whose first reads were asked for ahead', () => {
  let temp: TempStore;
  beforeEach(async () => {
    temp = await openTempStore();
  });
  afterEach(async () => {
    await temp.dispose();
  });

  const copyOfALog = async (name: string): Promise<string> => {
    const source = realSessionLogs.find((file) => file.endsWith('.jsonl')) as string;
    const file = join(temp.directory, name);
    await fs.copyFile(source, file);
    return file;
  };

  it('reads the file it opened ahead, not the path again: a log removed once its reads were asked for still imports whole', async () => {
    const file = await copyOfALog('session.v4.jsonl');
    const other = await openTempStore();
    const expected = await importSessionLog(file, other.store).finally(() => other.dispose());
    expect(expected.rejected).toBeUndefined();
    expect(expected.events).toBeGreaterThan(0);
    const prefetched = prefetchLog(file, prefetchOptionsOf({}));
    await Promise.all([prefetched.reader, prefetched.size, prefetched.opened]);
    await fs.unlink(file);
    const result = await importPrefetchedLog(prefetched, temp.store);
    expect(result.rejected).toBeUndefined();
    expect(result.events).toBe(expected.events);
    expect(result.appended).toBe(expected.appended);
  });

  it('reads the path afresh without a prefetch: the same removed log is rejected as unreadable', async () => {
    const file = await copyOfALog('session.v4.jsonl');
    await fs.unlink(file);
    const result = await importSessionLog(file, temp.store);
    expect(result.rejected).toMatchObject({ reason: 'unreadable' });
  });

  it('rejects a file that is not a session log as without a prefetch, and releases what it opened', async () => {
    const file = join(temp.directory, 'session.v4.jsonl');
    await fs.writeFile(file, 'not json\n{"also":"not a header"}\n');
    const prefetched = prefetchLog(file, prefetchOptionsOf({}));
    const result = await importPrefetchedLog(prefetched, temp.store);
    expect(result.rejected).toEqual((await importSessionLog(file, temp.store)).rejected);
    // Released: the opened chunks are closed, so asking for them again gives nothing.
    const chunks = await prefetched.opened;
    expect(await chunks.next()).toEqual({ done: true, value: undefined });
  });
});
