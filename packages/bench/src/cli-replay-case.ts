import { spawn } from 'node:child_process';
import { createWriteStream, promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import type { ChildResult } from './child-protocol';
import { waitedChildrenCpuMs } from './proc-cpu';
import { type TreePeak, startTreePeakSampling } from './process-tree-peak';

/** The `teamlog` executable this bench measures, as installed (built by `npm run bench`, which builds first). */
const teamlogBin = resolve(__dirname, '../../cli/bin/teamlog.js');

/** Packed V0 rows hold about 3.6 events per 230 bytes of synthetic log. */
const bytesPerEvent = 64;

export interface V0LeadLog {
  readonly file: string;
  readonly events: number;
  readonly bytes: number;
}

/** A synthetic V0 Lead log (packed rows) of about `events` events, in a directory of its own. */
export const writeV0LeadLog = async (directory: string, events: number): Promise<V0LeadLog> => {
  const file = join(directory, 'v0-lead', 'session.v0.jsonl');
  await fs.mkdir(join(directory, 'v0-lead'), { recursive: true });
  const written = await generateSyntheticLog({ file, targetBytes: events * bytesPerEvent, formatVersion: 0 });
  return { file, events: written.events, bytes: written.bytes };
};

export interface CliReplayRun {
  readonly elapsedMs: number;
  /** Events the JSON document says were imported (checks the run did the work). */
  readonly events: number;
  /**
   * The peak RSS of the command's whole process tree (the sum of each process's `VmHWM`, as last
   * read while it ran, every 50 ms; process-tree-peak.ts); undefined without `/proc`.
   */
  readonly peakRssBytes: number | undefined;
  /** How many processes the command ran as. */
  readonly processes: number;
  /**
   * User + system CPU time of the whole command (its processes, start-up included), from this
   * process's waited-for children's times; undefined without `/proc`.
   */
  readonly cpuMs?: number;
}

/**
 * `teamlog replay FILE --store STORE --json` (`:memory:` unless told), as a person runs it: the
 * installed bin with whatever heap it sets itself, stdout to a file; `nodeFlags` go to Node before
 * the script (a heap limit).
 */
export const runCliReplay = async (
  file: string,
  outputFile: string,
  store = ':memory:',
  nodeFlags: readonly string[] = [],
): Promise<CliReplayRun> => {
  // Only this command's process tree finishes while it runs (the bench runs one child at a time).
  const childrenCpuBefore = waitedChildrenCpuMs();
  const started = performance.now();
  let peak: TreePeak = { peakRssBytes: undefined, processes: 0 };
  const code = await new Promise<number | null>((done, fail) => {
    const out = createWriteStream(outputFile);
    const child = spawn(process.execPath, [...nodeFlags, teamlogBin, 'replay', file, '--store', store, '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const sampler = startTreePeakSampling(child.pid as number, 50);
    child.stdout.pipe(out);
    child.on('error', (error) => {
      peak = sampler.stop();
      fail(error);
    });
    // Gone from /proc once it exits: VmHWM only rises, so the last read (at most 50 ms before) misses only a later rise.
    child.on('exit', () => {
      peak = sampler.stop();
    });
    child.on('close', (exit) => {
      out.end(() => done(exit));
    });
  });
  const elapsedMs = performance.now() - started;
  const childrenCpuAfter = waitedChildrenCpuMs();
  if (code !== 0) throw new Error(`teamlog replay ${file} --store ${store} --json exited ${code}`);
  const document = JSON.parse(await fs.readFile(outputFile, 'utf8')) as { sessions: Array<{ events: number }> };
  return {
    elapsedMs,
    events: document.sessions.reduce((sum, session) => sum + session.events, 0),
    peakRssBytes: peak.peakRssBytes,
    processes: peak.processes,
    ...(childrenCpuBefore === undefined || childrenCpuAfter === undefined
      ? {}
      : { cpuMs: childrenCpuAfter - childrenCpuBefore }),
  };
};

/**
 * A CLI run as a child result (the events it imported in the whole process's wall time, and its
 * CPU time where known), so it pairs with a baseline child's run.
 */
export const cliRunResult = (run: CliReplayRun): ChildResult => ({
  case: 'cli-replay',
  elapsedMs: run.elapsedMs,
  count: run.events,
  peakRssBytes: run.peakRssBytes ?? 0,
  sampledPeakRssBytes: run.peakRssBytes ?? 0,
  detail: { processes: run.processes, ...(run.cpuMs === undefined ? {} : { cpuMs: run.cpuMs }) },
});

/**
 * A baseline run over a log's lines counted in the log's events: a V0 log packs several events in
 * a line, and the CLI's rows compare the times of the two runs over the same events.
 */
export const countedAsLogEvents = (baseline: ChildResult, events: number): ChildResult => ({
  ...baseline,
  count: events,
});
