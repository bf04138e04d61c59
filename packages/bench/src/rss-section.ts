import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import type { BenchOptions } from './bench-options';
import type { ChildResult } from './child-protocol';
import { type Target, formatRate, formatSize, memoryRow, ratePerSecond } from './report-table';
import { runChild } from './run-child';
import { type SectionContext, type SectionOutcome, noteOf } from './section-outcome';

/** Reading streams the log (< 256 MiB); replaying it into SQLite with its views must stay under 128 MiB. */
export const rssTarget: Target = { kind: 'bytes-below', bytes: 256 * 1024 ** 2 };
export const replayRssTarget: Target = { kind: 'bytes-below', bytes: 128 * 1024 ** 2 };
/** The heap limit the replay is measured with a second time (docs/historical-logs.md#memory): its live heap stays under it. */
const boundedHeapMiB = 64;
/**
 * V8 told to collect sooner, with no limit (so no out-of-memory risk): a small young generation and
 * an old generation grown by 20% of what survives instead of about 2x (docs/historical-logs.md#memory).
 */
export const collectSoonerFlags = ['--max-semi-space-size=2', '--heap-growing-percent=20'] as const;

/** The kernel's peak where /proc has it, else the sampled peak. */
const peakOf = (result: ChildResult): number =>
  result.peakRssBytes > 0 ? result.peakRssBytes : result.sampledPeakRssBytes;

/**
 * Peak RSS while a large log (generated here) streams through the reader, and (with --rss-replay)
 * through the importer into SQLite plus the projection runner. Each runs in a child process that
 * reads its own VmHWM.
 */
export const runRssSection = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const directory = join(workDirectory, 'large-log');
  await fs.mkdir(directory, { recursive: true });
  const file = join(directory, 'session.v4.jsonl');
  context.progress(`generating a ${formatSize(options.rssBytes)} session log`);
  const log = await generateSyntheticLog({ file, targetBytes: options.rssBytes, formatVersion: 4 });
  // On disk before the measurement: writeback of a fresh gigabyte must not compete with the reader.
  const handle = await fs.open(file, 'r+');
  await handle.sync().finally(() => handle.close());
  const size = formatSize(log.bytes);

  context.progress(`peak RSS: reading the ${size} log`);
  const read = await runChild({ case: 'read-log', file });
  const rows = [memoryRow(`Peak RSS, reading a ${size} log (reader, streamed)`, peakOf(read), rssTarget)];
  const notes = [
    `large log: ${log.events.toLocaleString('en-US')} events, ${log.lines.toLocaleString('en-US')} lines, ${size}`,
    noteOf('read large log', read, 'events'),
    `reader throughput on the large log: ${formatRate(ratePerSecond(log.bytes / 1024 ** 2, read.elapsedMs), 'MiB')}`,
  ];
  if (options.rssReplay) {
    const dbFile = join(workDirectory, 'large-log.sqlite');
    context.progress(`peak RSS: replaying the ${size} log into SQLite (import + views)`);
    const replay = await runChild({ case: 'replay-log', file, dbFile });
    if (replay.detail.rejected !== '')
      throw new Error(`the large log was not imported: ${String(replay.detail.rejected)}`);
    rows.push(
      memoryRow(`Peak RSS, replaying a ${size} log (import into SQLite + views)`, peakOf(replay), replayRssTarget),
    );
    notes.push(noteOf('replay large log into SQLite', replay, 'events'));
    const removeDb = () =>
      Promise.all(['', '-wal', '-shm'].map((suffix) => fs.rm(`${dbFile}${suffix}`, { force: true })));
    await removeDb();
    context.progress(`peak RSS: the same with a ${boundedHeapMiB} MiB heap limit`);
    const bounded = await runChild({ case: 'replay-log', file, dbFile }, [`--max-old-space-size=${boundedHeapMiB}`]);
    if (bounded.detail.rejected !== '')
      throw new Error(`the large log was not imported on a bounded heap: ${String(bounded.detail.rejected)}`);
    rows.push(
      memoryRow(
        `Peak RSS, the same with a ${boundedHeapMiB} MiB heap limit (--max-old-space-size)`,
        peakOf(bounded),
        replayRssTarget,
      ),
    );
    notes.push(noteOf(`replay large log into SQLite, ${boundedHeapMiB} MiB heap limit`, bounded, 'events'));
    await removeDb();
    context.progress(`peak RSS: the same with ${collectSoonerFlags.join(' ')}`);
    const sooner = await runChild({ case: 'replay-log', file, dbFile }, collectSoonerFlags);
    if (sooner.detail.rejected !== '')
      throw new Error(`the large log was not imported collecting sooner: ${String(sooner.detail.rejected)}`);
    rows.push(
      memoryRow(
        `Peak RSS, the same collecting sooner, no limit (${collectSoonerFlags.join(' ')})`,
        peakOf(sooner),
        replayRssTarget,
      ),
    );
    notes.push(noteOf('replay large log into SQLite, collecting sooner', sooner, 'events'));
    await removeDb();
  }
  await fs.rm(directory, { recursive: true, force: true });
  return { rows, notes, profiles: [] };
};
