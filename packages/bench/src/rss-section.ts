import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import type { BenchOptions } from './bench-options';
import type { ChildResult } from './child-protocol';
import { type Target, formatRate, formatSize, memoryRow, ratePerSecond } from './report-table';
import { runChild } from './run-child';
import { runCliReplay } from './cli-replay-case';
import { type SectionContext, type SectionOutcome, noteOf } from './section-outcome';

/** Reading streams the log (< 256 MiB); replaying it into SQLite with its views must stay under 128 MiB. */
export const rssTarget: Target = { kind: 'bytes-below', bytes: 256 * 1024 ** 2 };
export const replayRssTarget: Target = { kind: 'bytes-below', bytes: 128 * 1024 ** 2 };

/** The kernel's peak where /proc has it, else the sampled peak. */
const peakOf = (result: ChildResult): number =>
  result.peakRssBytes > 0 ? result.peakRssBytes : result.sampledPeakRssBytes;

/**
 * Peak RSS while a large log (generated here) streams through the reader, and (with --rss-replay)
 * through `teamlog replay` into SQLite, as installed (its whole process tree), and through the
 * importer plus the projection runner as a library, on Node's own heap: the CLI's heap settings
 * against none. The reader and the library run in a child process that reads its own VmHWM.
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
    const removeDb = () =>
      Promise.all(['', '-wal', '-shm'].map((suffix) => fs.rm(`${dbFile}${suffix}`, { force: true })));
    context.progress(`peak RSS: teamlog replay of the ${size} log into SQLite (the bin, as installed)`);
    const cli = await runCliReplay(file, join(workDirectory, 'large-log-replay.json'), dbFile);
    if (cli.events !== log.events)
      throw new Error(`teamlog replay imported ${cli.events} of the large log's ${log.events} events`);
    if (cli.peakRssBytes !== undefined)
      rows.push(
        memoryRow(
          `Peak RSS, teamlog replay of a ${size} log into SQLite (process tree, no NODE_OPTIONS)`,
          cli.peakRssBytes,
          replayRssTarget,
        ),
      );
    notes.push(
      `teamlog replay of the large log into SQLite: ${(cli.elapsedMs / 1000).toFixed(1)} s, ${cli.processes} process(es), the heap as the CLI sets it (docs/historical-logs.md#memory)`,
    );
    await removeDb();
    context.progress(`peak RSS: replaying the ${size} log into SQLite as a library, Node's own heap (bench child)`);
    const replay = await runChild({ case: 'replay-log', file, dbFile });
    if (replay.detail.rejected !== '')
      throw new Error(`the large log was not imported: ${String(replay.detail.rejected)}`);
    rows.push(
      memoryRow(
        `Peak RSS, the same as a library with Node's own heap (import into SQLite + views)`,
        peakOf(replay),
        // What the CLI's heap settings save, not a target: a library's user sizes their own Node.
        { kind: 'none' },
      ),
    );
    notes.push(noteOf('replay large log into SQLite as a library', replay, 'events'));
    await removeDb();
  }
  await fs.rm(directory, { recursive: true, force: true });
  return { rows, notes, profiles: [] };
};
