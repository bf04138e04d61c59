import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type SyntheticLogResult, generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import { runTeamlog, storedEventCount, temporaryDirectory } from './run-teamlog';

/**
 * A heap far smaller than the log's events would take held whole (about 7x its bytes): the
 * replay succeeds only if the import keeps one file's bounded working set (one staged chunk, or
 * the single-pass budget's worth), whatever the file holds (docs/historical-logs.md#memory).
 */
const heapMiB = 48;
const logBytes = 24 * 1024 * 1024;

describe('the memory of an import is bounded whatever the file holds', () => {
  const directory = temporaryDirectory();
  let log: SyntheticLogResult;

  beforeAll(async () => {
    mkdirSync(join(directory.path, 'big'));
    log = await generateSyntheticLog({
      file: join(directory.path, 'big', 'session.v4.jsonl'),
      targetBytes: logBytes,
      formatVersion: 4,
    });
  }, 120_000);

  afterAll(() => directory.cleanup());

  const replayWithSmallHeap = (store: string) =>
    runTeamlog(['replay', log.file, '--store', store, '--json'], {
      env: { NODE_OPTIONS: `--max-old-space-size=${heapMiB}` },
    });

  it(`given a ${logBytes / 1024 ** 2} MiB log, when replayed into :memory: on a ${heapMiB} MiB heap, then every event is folded`, () => {
    const run = replayWithSmallHeap(':memory:');
    expect(run.stderr).not.toMatch(/heap out of memory/);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout) as { sessions: Array<{ events: number }> };
    expect(document.sessions.map((session) => session.events)).toEqual([log.events]);
  }, 600_000);

  it(`given the same log, when replayed into a SQLite file on a ${heapMiB} MiB heap, then every event is stored`, () => {
    const store = join(directory.path, 'store.db');
    const run = replayWithSmallHeap(store);
    expect(run.stderr).not.toMatch(/heap out of memory/);
    expect(run.code).toBe(0);
    // The header stream's one event beside the session's.
    expect(storedEventCount(store)).toBe(log.events + 1);
  }, 600_000);
});
