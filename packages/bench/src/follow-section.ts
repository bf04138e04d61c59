import { join } from 'node:path';
import type { BenchOptions } from './bench-options';
import { measureFollowLatency } from './follow-latency-case';
import { type IdleCpu, measureIdleCpu, writeIdleCorpus } from './idle-cpu-case';
import { percentile } from './percentiles';
import { type ReportRow, type Target, limitRow } from './report-table';
import type { SectionContext, SectionOutcome } from './section-outcome';

/** The targets: a line reaches the page's event stream within 200 ms (median) and 1 s (p99); an idle watcher takes under 1% of a core. */
export const followTargets = { medianMs: 200, p99Ms: 1000, idlePercent: 1 } as const;

const below = (limit: number, unit: string): Target => ({ kind: 'below', limit, unit });
const ms = (value: number): string => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const percent = (value: number): string => `${value.toFixed(2)} % of a core`;

const idleRow = (measure: string, idle: IdleCpu, target: Target): ReportRow =>
  limitRow(measure, percent(idle.percentOfCore), idle.percentOfCore, target);

/**
 * Following a running harness: the delay from a line written to the change the dashboard's event
 * stream reports (`teamlog serve --follow`, fs.watch), and the CPU the follower takes while
 * nothing changes, over a root of many session logs: `teamlog watch` (fs.watch), `teamlog watch
 * --poll` (the fallback, default interval) and `teamlog serve --follow` (watcher and dashboard).
 */
export const runFollowSection = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const directory = join(workDirectory, 'follow');
  context.progress(`follow: ${options.followLines} lines written one at a time under teamlog serve --follow`);
  const latency = await measureFollowLatency(directory, options.followLines, context.progress);
  const median = percentile(latency.samplesMs, 50);
  const p99 = percentile(latency.samplesMs, 99);

  context.progress(`follow: an idle root of ${options.followFiles} session logs`);
  const corpus = await writeIdleCorpus(directory, options.followFiles);
  const store = join(directory, 'idle.db');
  const seconds = (options.followIdleMs / 1000).toFixed(0);
  context.progress(`follow: teamlog watch idle for ${seconds} s (fs.watch)`);
  const watched = await measureIdleCpu(['watch', corpus.root, '--store', store], options.followIdleMs);
  context.progress(`follow: teamlog watch --poll idle for ${seconds} s`);
  const polled = await measureIdleCpu(['watch', corpus.root, '--store', store, '--poll'], options.followIdleMs);
  context.progress(`follow: teamlog serve --follow idle for ${seconds} s`);
  const served = await measureIdleCpu(
    ['serve', '--follow', corpus.root, '--store', store, '--port', '0'],
    options.followIdleMs,
  );

  const rows = [
    limitRow(
      'Follow: line written -> dashboard change, median',
      ms(median),
      median,
      below(followTargets.medianMs, 'ms'),
    ),
    limitRow('Follow: line written -> dashboard change, p99', ms(p99), p99, below(followTargets.p99Ms, 'ms')),
    idleRow(
      `Follow: teamlog watch idle CPU (fs.watch, ${corpus.files} logs)`,
      watched,
      below(followTargets.idlePercent, '%'),
    ),
    idleRow(`Follow: teamlog watch --poll idle CPU (1000 ms, ${corpus.files} logs)`, polled, { kind: 'none' }),
    idleRow(`Follow: teamlog serve --follow idle CPU (${corpus.files} logs)`, served, { kind: 'none' }),
  ];
  const notes = [
    `follow latency: ${latency.samplesMs.length} lines of a synthetic V4 log appended one at a time (open, append, close), each timed from the write to the first "change" event on /api/stream past the views before it; ` +
      `the first ${latency.warmUpLines} lines not counted (a log's first growth is read whole once); min ${ms(Math.min(...latency.samplesMs))}, p90 ${ms(percentile(latency.samplesMs, 90))}, max ${ms(Math.max(...latency.samplesMs))}; SQLite store, synchronous=FULL`,
    `follow idle: ${corpus.files} session logs in ${corpus.directories} directories; CPU time (user + system, /proc/<pid>/stat) over ${seconds} s once the first import was done and 2 s passed; ` +
      `first import (process start to first line): watch ${(watched.startMs / 1000).toFixed(1)} s into an empty store, then ${(polled.startMs / 1000).toFixed(1)} s (--poll) and ${(served.startMs / 1000).toFixed(1)} s (serve --follow) on the same store, where it appends nothing`,
    'follow idle, what takes the CPU: fs.watch needs nothing between changes but a full look by stat every 60 s (a safety net for a dropped watch event); --poll stats every directory and log each second; serve --follow adds the dashboard, whose store subscription reads the SQLite file every 50 ms for other writers',
  ];
  return { rows, notes, profiles: [] };
};
