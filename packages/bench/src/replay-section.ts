import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from './bench-options';
import type { ChildRequest, ChildResult } from './child-protocol';
import { memoryRow, ratePerSecond, throughputRow, verdictOf } from './report-table';
import { runChild } from './run-child';
import { type SectionContext, type SectionOutcome, noteOf } from './section-outcome';
import { writeTeamCorpus } from './write-team-corpus';
import { medianRun } from './median-run';
import { type CliReplayRun, cliRunResult, countedAsLogEvents, runCliReplay, writeV0LeadLog } from './cli-replay-case';
import { alternatedPairs } from './alternated-pairs';
import { type RunPair, pairedSpread } from './paired-ratio';
import { pairedRunsNote, pairedThroughputRow } from './paired-row';
import { writeBigLeadLog } from './big-lead-log';

export const replayTargets = { memory: 0.5, sqlite: 0.3, cli: 0.35, bigLeadMemory: 0.5, bigLeadSqlite: 0.25 } as const;
/** Peak RSS of `teamlog replay BIG-LEAD-LOG --store :memory:` (docs/benchmarks.md states the target). */
export const bigLeadPeakRssTarget = { kind: 'bytes-below', bytes: 256 * 1024 ** 2 } as const;
/** Members of the big Lead log's team: "tens of members". */
const bigLeadMembers = 50;
/** The heap limit docs/historical-logs.md#memory gives as its example: the big Lead log's views and document fit in it. */
const boundedHeapMiB = 192;

const rateOf = (result: ChildResult): number => ratePerSecond(result.count, result.elapsedMs);

/** A replay that rejected a file or failed a team measured the wrong thing: stop rather than print it. */
const assertReplayed = (label: string, result: ChildResult, events: number): void => {
  const { rejected, teamFailures } = result.detail;
  if (rejected !== 0 || teamFailures !== 0 || result.count !== events) {
    throw new Error(
      `${label} replayed ${result.count} of ${events} events with ${rejected} rejected files and ${teamFailures} failed teams`,
    );
  }
};

/** Replay throughput (import + views) on the in-memory and SQLite stores against JSON.parse of the same lines. */
export const runReplaySection = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const root = join(workDirectory, 'corpus');
  context.progress(
    `generating a corpus of ${options.events.toLocaleString('en-US')} events (${options.teams} teams of 1 Lead + ${options.membersPerTeam} members)`,
  );
  const corpus = await writeTeamCorpus(root, {
    events: options.events,
    teams: options.teams,
    membersPerTeam: options.membersPerTeam,
  });
  const dbFile = join(workDirectory, 'replay.sqlite');
  const baselineRequest: ChildRequest = { case: 'parse-baseline', root };
  const replayRequest = (store: 'memory' | 'sqlite', unchained = false, writerThread = false): ChildRequest => ({
    case: 'replay',
    root,
    store,
    dbFile,
    ...(unchained ? { unchained } : {}),
    ...(writerThread ? { writerThread } : {}),
  });
  const removeDb = () =>
    Promise.all(['', '-wal', '-shm'].map((suffix) => fs.rm(`${dbFile}${suffix}`, { force: true })));

  // The in-memory replay takes about three times the baseline, so it is paired: each of its runs
  // back to back with a baseline run, the baseline first in odd pairs, and the row is the median of
  // the pairs' ratios: a load passing over the shared machine moves both runs of a pair alike.
  context.progress('baseline: warm-up run (page cache)');
  await runChild(baselineRequest);
  const pairs = options.replayPairs;
  const memoryPairs = await alternatedPairs(
    pairs,
    (run) => {
      context.progress(`replay into the in-memory store (pair ${run} of ${pairs})`);
      return runChild(replayRequest('memory'));
    },
    (run) => {
      context.progress(`baseline: JSON.parse of every line (pair ${run} of ${pairs})`);
      return runChild(baselineRequest);
    },
  );
  // The SQLite replays take tens of seconds each: one run each, against the median of all the
  // section's baseline runs (the pairs', and one after them).
  context.progress('replay into the SQLite store');
  const sqlite = await runChild(replayRequest('sqlite'));
  await removeDb();
  context.progress('replay into the SQLite store without hash chains (what the chains cost)');
  const unchained = await runChild(replayRequest('sqlite', true));
  await removeDb();
  context.progress('replay into the SQLite store written on a second thread (what the opt-in writer thread gains)');
  const threaded = await runChild(replayRequest('sqlite', false, true));
  await removeDb();
  context.progress('baseline: JSON.parse of every line (after the SQLite replays)');
  const baselines = [...memoryPairs.map((pair) => pair.counterpart), await runChild(baselineRequest)];
  const baseline = medianRun(baselines);
  for (const [index, pair] of memoryPairs.entries())
    assertReplayed(`the in-memory replay (pair ${index + 1})`, pair.measured, baseline.count);
  assertReplayed('the SQLite replay', sqlite, baseline.count);
  assertReplayed('the SQLite replay without hash chains', unchained, baseline.count);
  assertReplayed('the SQLite replay written on a second thread', threaded, baseline.count);
  const memory = pairedSpread(memoryPairs).medianPair.measured;

  const cli = await measureCliReplay(options, workDirectory, context);
  const big = await measureBigLeadReplay(options, workDirectory, context);
  const baselineRate = rateOf(baseline);
  const bigBaseline = medianRun(big.baselines);
  const names = { measured: 'replay', counterpart: 'JSON.parse' };
  const rows = [
    pairedThroughputRow('Replay, in-memory store (import + views)', 'ev', 'JSON.parse', memoryPairs, {
      kind: 'ratio-at-least',
      ratio: replayTargets.memory,
    }),
    throughputRow('Replay, SQLite store (import + views)', 'ev', rateOf(sqlite), 'JSON.parse', baselineRate, {
      kind: 'ratio-at-least',
      ratio: replayTargets.sqlite,
    }),
    pairedThroughputRow(
      `teamlog replay FILE --store :memory: --json (V0 Lead log, ${cli.events.toLocaleString('en-US')} events)`,
      'ev',
      'JSON.parse',
      cli.pairs,
      { kind: 'ratio-at-least', ratio: replayTargets.cli },
    ),
    pairedThroughputRow(
      `teamlog replay FILE --store :memory: --json (big Lead log, ${bigLeadMembers} members, ${big.mailboxRecords.toLocaleString('en-US')} mailbox records)`,
      'ev',
      'JSON.parse',
      big.memoryPairs,
      { kind: 'ratio-at-least', ratio: replayTargets.bigLeadMemory },
    ),
    throughputRow(
      'teamlog replay FILE --store FILE.db --json (the same big Lead log into SQLite)',
      'ev',
      ratePerSecond(big.events, big.sqlite.elapsedMs),
      'JSON.parse',
      rateOf(bigBaseline),
      { kind: 'ratio-at-least', ratio: replayTargets.bigLeadSqlite },
    ),
    ...(big.memory.peakRssBytes === undefined
      ? []
      : [
          memoryRow(
            'Peak RSS, teamlog replay of the big Lead log --store :memory:',
            big.memory.peakRssBytes,
            bigLeadPeakRssTarget,
          ),
        ]),
    ...(big.bounded.peakRssBytes === undefined
      ? []
      : [
          memoryRow(
            `Peak RSS, the same with a ${boundedHeapMiB} MiB heap limit (--max-old-space-size)`,
            big.bounded.peakRssBytes,
            bigLeadPeakRssTarget,
          ),
        ]),
  ];
  const seconds = (runs: readonly ChildResult[]): string =>
    runs.map((run) => `${(run.elapsedMs / 1000).toFixed(2)} s`).join(', ');
  const notes = [
    `corpus: ${corpus.files.length} logs, ${corpus.summary.events.toLocaleString('en-US')} events, ${(corpus.bytes / 1024 ** 2).toFixed(1)} MiB; team records v1=${corpus.summary.teamRecords.v1} v2=${corpus.summary.teamRecords.v2}, queued=${corpus.summary.queued} delivered=${corpus.summary.delivered} relayed=${corpus.summary.relayed} claimed=${corpus.summary.claimed} tasks=${corpus.summary.tasks}`,
    pairedRunsNote('replay in-memory vs JSON.parse', memoryPairs, 'ev', names, replayTargets.memory),
    noteOf('replay in-memory (the median pair)', memory, 'events'),
    noteOf('baseline JSON.parse (the median pair)', pairedSpread(memoryPairs).medianPair.counterpart, 'events'),
    `baseline runs (the pairs', then after the SQLite replays): ${seconds(baselines)}; the SQLite rows' baseline is their median run, ${(baseline.elapsedMs / 1000).toFixed(2)} s`,
    noteOf('replay SQLite', sqlite, 'events'),
    noteOf('replay SQLite without hash chains', unchained, 'events'),
    `hash chain cost (same run): SQLite replay ${(rateOf(sqlite) / rateOf(unchained)).toFixed(2)}x the rate without chains`,
    noteOf('replay SQLite written on a second thread', threaded, 'events'),
    `writer thread (same run, opt-in): SQLite replay ${(rateOf(threaded) / rateOf(sqlite)).toFixed(2)}x the rate written on one thread`,
    pairedRunsNote(
      'teamlog replay --store :memory: --json of the big Lead log vs JSON.parse',
      big.memoryPairs,
      'ev',
      { measured: 'teamlog replay', counterpart: 'JSON.parse' },
      replayTargets.bigLeadMemory,
    ),
    `big Lead log: ${(big.bytes / 1024 ** 2).toFixed(1)} MiB, ${big.events.toLocaleString('en-US')} events (${big.mailboxRecords.toLocaleString('en-US')} mailbox records, ${big.taskRecords.toLocaleString('en-US')} task snapshots, ${bigLeadMembers} members); teamlog replay --store :memory: ${seconds(big.memoryPairs.map((pair) => pair.measured))} (peak RSS of the median pair's ${big.memory.peakRssBytes === undefined ? 'unknown' : `${(big.memory.peakRssBytes / 1024 ** 2).toFixed(1)} MiB`}), with a ${boundedHeapMiB} MiB heap limit ${(big.bounded.elapsedMs / 1000).toFixed(2)} s (peak RSS ${big.bounded.peakRssBytes === undefined ? 'unknown' : `${(big.bounded.peakRssBytes / 1024 ** 2).toFixed(1)} MiB`}), into SQLite ${(big.sqlite.elapsedMs / 1000).toFixed(2)} s (peak RSS ${big.sqlite.peakRssBytes === undefined ? 'unknown' : `${(big.sqlite.peakRssBytes / 1024 ** 2).toFixed(1)} MiB`}); JSON.parse of its lines ${seconds(big.baselines)} (the pairs', then after the SQLite run; the SQLite row's baseline is their median run)`,
    pairedRunsNote(
      `teamlog replay --store :memory: --json of a ${(cli.bytes / 1024 ** 2).toFixed(1)} MiB V0 Lead log (${cli.events.toLocaleString('en-US')} events, the whole process) vs JSON.parse`,
      cli.pairs,
      'ev',
      { measured: 'teamlog replay', counterpart: 'JSON.parse' },
      replayTargets.cli,
    ),
  ];

  await fs.rm(root, { recursive: true, force: true });
  const missed = [
    {
      title: 'replay, in-memory store',
      store: 'memory' as const,
      ratio: pairedSpread(memoryPairs).median,
      target: replayTargets.memory,
    },
    {
      title: 'replay, SQLite store',
      store: 'sqlite' as const,
      ratio: rateOf(sqlite) / baselineRate,
      target: replayTargets.sqlite,
    },
  ].filter(({ ratio, target }) => verdictOf({ kind: 'ratio-at-least', ratio: target }, ratio) === 'MISS');
  const profiles: string[] = [];
  if (missed.length > 0 && context.profiling) {
    // A smaller corpus of the same shape: the profile shows where time goes without doubling the run.
    const profileRoot = join(workDirectory, 'profile-corpus');
    context.progress(`generating a ${options.profileEvents.toLocaleString('en-US')}-event corpus to profile on`);
    await writeTeamCorpus(profileRoot, {
      events: options.profileEvents,
      teams: options.teams,
      membersPerTeam: options.membersPerTeam,
    });
    for (const { title, store } of missed) {
      const label = `${title}, ${options.profileEvents.toLocaleString('en-US')} events (missed its target)`;
      profiles.push(...(await context.profile(label, { case: 'replay', root: profileRoot, store, dbFile })));
      await removeDb();
    }
    await fs.rm(profileRoot, { recursive: true, force: true });
  }
  return { rows, notes, profiles };
};

/**
 * The whole command a person runs on one big historical Lead log, against reading and parsing the
 * same lines, in back-to-back pairs (the baseline first in odd pairs); both are timed on the same
 * events, so each pair's ratio is the ratio of its two times.
 */
const measureCliReplay = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<{
  readonly events: number;
  readonly bytes: number;
  readonly pairs: readonly RunPair[];
}> => {
  const directory = join(workDirectory, 'cli-replay');
  context.progress(`generating a V0 Lead log of about ${options.cliReplayEvents.toLocaleString('en-US')} events`);
  const log = await writeV0LeadLog(directory, options.cliReplayEvents);
  const baselineRequest: ChildRequest = { case: 'parse-baseline', root: join(directory, 'v0-lead') };
  await runChild(baselineRequest);
  const pairs = await alternatedPairs(
    options.replayPairs,
    async (run) => {
      context.progress(`teamlog replay FILE --store :memory: --json (pair ${run} of ${options.replayPairs})`);
      const replayed = await runCliReplay(log.file, join(directory, 'replay.json'));
      if (replayed.events !== log.events)
        throw new Error(`teamlog replay imported ${replayed.events} of the log's ${log.events} events`);
      return cliRunResult(replayed);
    },
    async () => countedAsLogEvents(await runChild(baselineRequest), log.events),
  );
  await fs.rm(directory, { recursive: true, force: true });
  return { events: log.events, bytes: log.bytes, pairs };
};

/**
 * The big Lead log (tens of members, most of it mailbox records), replayed by the whole command
 * into `:memory:` in back-to-back pairs with a baseline run, then once with a bounded heap and once
 * into a SQLite file, against reading and parsing its lines.
 */
const measureBigLeadReplay = async (options: BenchOptions, workDirectory: string, context: SectionContext) => {
  const directory = join(workDirectory, 'big-lead-replay');
  context.progress(
    `generating a big Lead log of about ${options.cliReplayEvents.toLocaleString('en-US')} events (${bigLeadMembers} members)`,
  );
  const log = await writeBigLeadLog(directory, { events: options.cliReplayEvents, members: bigLeadMembers });
  const baselineRequest: ChildRequest = { case: 'parse-baseline', root: join(directory, 'big-lead') };
  const checked = (run: CliReplayRun): CliReplayRun => {
    if (run.events !== log.events)
      throw new Error(`teamlog replay imported ${run.events} of the big Lead log's ${log.events} events`);
    return run;
  };
  await runChild(baselineRequest);
  const memoryRuns: CliReplayRun[] = [];
  const memoryPairs = await alternatedPairs(
    options.replayPairs,
    async (run) => {
      context.progress(`teamlog replay BIG-LEAD-LOG --store :memory: --json (pair ${run} of ${options.replayPairs})`);
      const replayed = checked(await runCliReplay(log.file, join(directory, 'replay.json')));
      memoryRuns.push(replayed);
      return cliRunResult(replayed);
    },
    async () => countedAsLogEvents(await runChild(baselineRequest), log.events),
  );
  context.progress(`the same with a ${boundedHeapMiB} MiB heap limit (docs/historical-logs.md#memory)`);
  const bounded = checked(
    await runCliReplay(log.file, join(directory, 'replay-bounded.json'), ':memory:', [
      `--max-old-space-size=${boundedHeapMiB}`,
    ]),
  );
  context.progress('teamlog replay BIG-LEAD-LOG --store FILE.db --json');
  const sqlite = checked(
    await runCliReplay(log.file, join(directory, 'replay-sqlite.json'), join(directory, 'replay.db')),
  );
  const baselines = [
    ...memoryPairs.map((pair) => pair.counterpart),
    countedAsLogEvents(await runChild(baselineRequest), log.events),
  ];
  await fs.rm(directory, { recursive: true, force: true });
  const medianMeasured = pairedSpread(memoryPairs).medianPair.measured;
  return {
    ...log,
    memoryPairs,
    memory: memoryRuns[memoryPairs.findIndex((pair) => pair.measured === medianMeasured)] as CliReplayRun,
    bounded,
    sqlite,
    baselines,
  };
};
