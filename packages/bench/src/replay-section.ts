import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from './bench-options';
import type { ChildRequest, ChildResult } from './child-protocol';
import { memoryRow, ratePerSecond, throughputRow, verdictOf } from './report-table';
import { runChild } from './run-child';
import { type SectionContext, type SectionOutcome, noteOf } from './section-outcome';
import { writeTeamCorpus } from './write-team-corpus';
import { medianRun } from './median-run';
import { runCliReplay, writeV0LeadLog } from './cli-replay-case';
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

  // The baseline takes seconds and the replays tens of seconds, so one baseline run is at the mercy
  // of a passing load on a shared machine: it runs before, between and after the replays, and the
  // median run is the baseline.
  const baselines: ChildResult[] = [];
  const measureBaseline = async (when: string) => {
    context.progress(`baseline: JSON.parse of every line (${when})`);
    baselines.push(await runChild(baselineRequest));
  };
  context.progress('baseline: warm-up run (page cache)');
  await runChild(baselineRequest);
  await measureBaseline('1 of 3, before the replays');
  context.progress('replay into the in-memory store');
  const memory = await runChild(replayRequest('memory'));
  await measureBaseline('2 of 3, between the replays');
  context.progress('replay into the SQLite store');
  const sqlite = await runChild(replayRequest('sqlite'));
  await removeDb();
  context.progress('replay into the SQLite store without hash chains (what the chains cost)');
  const unchained = await runChild(replayRequest('sqlite', true));
  await removeDb();
  context.progress('replay into the SQLite store written on a second thread (what the opt-in writer thread gains)');
  const threaded = await runChild(replayRequest('sqlite', false, true));
  await removeDb();
  await measureBaseline('3 of 3, after the replays');
  const baseline = medianRun(baselines);
  assertReplayed('the in-memory replay', memory, baseline.count);
  assertReplayed('the SQLite replay', sqlite, baseline.count);
  assertReplayed('the SQLite replay without hash chains', unchained, baseline.count);
  assertReplayed('the SQLite replay written on a second thread', threaded, baseline.count);

  const cli = await measureCliReplay(options, workDirectory, context);
  const big = await measureBigLeadReplay(options, workDirectory, context);
  const baselineRate = rateOf(baseline);
  const rows = [
    throughputRow('Replay, in-memory store (import + views)', 'ev', rateOf(memory), 'JSON.parse', baselineRate, {
      kind: 'ratio-at-least',
      ratio: replayTargets.memory,
    }),
    throughputRow('Replay, SQLite store (import + views)', 'ev', rateOf(sqlite), 'JSON.parse', baselineRate, {
      kind: 'ratio-at-least',
      ratio: replayTargets.sqlite,
    }),
    throughputRow(
      `teamlog replay FILE --store :memory: --json (V0 Lead log, ${cli.events.toLocaleString('en-US')} events)`,
      'ev',
      ratePerSecond(cli.events, cli.elapsedMs),
      'JSON.parse',
      ratePerSecond(cli.events, cli.baselineMs),
      { kind: 'ratio-at-least', ratio: replayTargets.cli },
    ),
    throughputRow(
      `teamlog replay FILE --store :memory: --json (big Lead log, ${bigLeadMembers} members, ${big.mailboxRecords.toLocaleString('en-US')} mailbox records)`,
      'ev',
      ratePerSecond(big.events, big.memory.elapsedMs),
      'JSON.parse',
      ratePerSecond(big.events, big.baselineMs),
      { kind: 'ratio-at-least', ratio: replayTargets.bigLeadMemory },
    ),
    throughputRow(
      'teamlog replay FILE --store FILE.db --json (the same big Lead log into SQLite)',
      'ev',
      ratePerSecond(big.events, big.sqlite.elapsedMs),
      'JSON.parse',
      ratePerSecond(big.events, big.baselineMs),
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
  const notes = [
    `corpus: ${corpus.files.length} logs, ${corpus.summary.events.toLocaleString('en-US')} events, ${(corpus.bytes / 1024 ** 2).toFixed(1)} MiB; team records v1=${corpus.summary.teamRecords.v1} v2=${corpus.summary.teamRecords.v2}, queued=${corpus.summary.queued} delivered=${corpus.summary.delivered} relayed=${corpus.summary.relayed} claimed=${corpus.summary.claimed} tasks=${corpus.summary.tasks}`,
    noteOf('baseline JSON.parse (median run)', baseline, 'events'),
    `baseline runs (before, between, after the replays): ${baselines.map((run) => `${(run.elapsedMs / 1000).toFixed(2)} s`).join(', ')}`,
    noteOf('replay in-memory', memory, 'events'),
    noteOf('replay SQLite', sqlite, 'events'),
    noteOf('replay SQLite without hash chains', unchained, 'events'),
    `hash chain cost (same run): SQLite replay ${(rateOf(sqlite) / rateOf(unchained)).toFixed(2)}x the rate without chains`,
    noteOf('replay SQLite written on a second thread', threaded, 'events'),
    `writer thread (same run, opt-in): SQLite replay ${(rateOf(threaded) / rateOf(sqlite)).toFixed(2)}x the rate written on one thread`,
    `big Lead log: ${(big.bytes / 1024 ** 2).toFixed(1)} MiB, ${big.events.toLocaleString('en-US')} events (${big.mailboxRecords.toLocaleString('en-US')} mailbox records, ${big.taskRecords.toLocaleString('en-US')} task snapshots, ${bigLeadMembers} members); teamlog replay --store :memory: ${(big.memory.elapsedMs / 1000).toFixed(2)} s (peak RSS ${big.memory.peakRssBytes === undefined ? 'unknown' : `${(big.memory.peakRssBytes / 1024 ** 2).toFixed(1)} MiB`}), with a ${boundedHeapMiB} MiB heap limit ${(big.bounded.elapsedMs / 1000).toFixed(2)} s (peak RSS ${big.bounded.peakRssBytes === undefined ? 'unknown' : `${(big.bounded.peakRssBytes / 1024 ** 2).toFixed(1)} MiB`}), into SQLite ${(big.sqlite.elapsedMs / 1000).toFixed(2)} s (peak RSS ${big.sqlite.peakRssBytes === undefined ? 'unknown' : `${(big.sqlite.peakRssBytes / 1024 ** 2).toFixed(1)} MiB`}); JSON.parse of its lines ${(big.baselineMs / 1000).toFixed(2)} s (median of ${big.baselineRuns})`,
    `teamlog replay --store :memory: --json of a ${(cli.bytes / 1024 ** 2).toFixed(1)} MiB V0 Lead log (${cli.events.toLocaleString('en-US')} events): ${(cli.elapsedMs / 1000).toFixed(2)} s for the whole process; JSON.parse of its lines ${(cli.baselineMs / 1000).toFixed(2)} s (median of ${cli.baselineRuns})`,
  ];

  await fs.rm(root, { recursive: true, force: true });
  const missed = [
    {
      title: 'replay, in-memory store',
      store: 'memory' as const,
      ratio: rateOf(memory) / baselineRate,
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
 * same lines; both are timed on the same events, so the ratio is the ratio of the two times.
 */
const measureCliReplay = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<{
  readonly events: number;
  readonly bytes: number;
  readonly elapsedMs: number;
  readonly baselineMs: number;
  readonly baselineRuns: number;
}> => {
  const directory = join(workDirectory, 'cli-replay');
  context.progress(`generating a V0 Lead log of about ${options.cliReplayEvents.toLocaleString('en-US')} events`);
  const log = await writeV0LeadLog(directory, options.cliReplayEvents);
  const baselineRequest: ChildRequest = { case: 'parse-baseline', root: join(directory, 'v0-lead') };
  await runChild(baselineRequest);
  const baselines = [await runChild(baselineRequest)];
  context.progress('teamlog replay FILE --store :memory: --json');
  const run = await runCliReplay(log.file, join(directory, 'replay.json'));
  if (run.events !== log.events)
    throw new Error(`teamlog replay imported ${run.events} of the log's ${log.events} events`);
  baselines.push(await runChild(baselineRequest), await runChild(baselineRequest));
  await fs.rm(directory, { recursive: true, force: true });
  return {
    events: log.events,
    bytes: log.bytes,
    elapsedMs: run.elapsedMs,
    baselineMs: medianRun(baselines).elapsedMs,
    baselineRuns: baselines.length,
  };
};

/**
 * The big Lead log (tens of members, most of it mailbox records), replayed by the
 * whole command into `:memory:` and into a SQLite file, against reading and parsing its lines.
 */
const measureBigLeadReplay = async (options: BenchOptions, workDirectory: string, context: SectionContext) => {
  const directory = join(workDirectory, 'big-lead-replay');
  context.progress(
    `generating a big Lead log of about ${options.cliReplayEvents.toLocaleString('en-US')} events (${bigLeadMembers} members)`,
  );
  const log = await writeBigLeadLog(directory, { events: options.cliReplayEvents, members: bigLeadMembers });
  const baselineRequest: ChildRequest = { case: 'parse-baseline', root: join(directory, 'big-lead') };
  await runChild(baselineRequest);
  const baselines = [await runChild(baselineRequest)];
  context.progress('teamlog replay BIG-LEAD-LOG --store :memory: --json');
  const memory = await runCliReplay(log.file, join(directory, 'replay.json'));
  context.progress(`the same with a ${boundedHeapMiB} MiB heap limit (docs/historical-logs.md#memory)`);
  const bounded = await runCliReplay(log.file, join(directory, 'replay-bounded.json'), ':memory:', [
    `--max-old-space-size=${boundedHeapMiB}`,
  ]);
  baselines.push(await runChild(baselineRequest));
  context.progress('teamlog replay BIG-LEAD-LOG --store FILE.db --json');
  const sqlite = await runCliReplay(log.file, join(directory, 'replay-sqlite.json'), join(directory, 'replay.db'));
  baselines.push(await runChild(baselineRequest));
  for (const run of [memory, bounded, sqlite])
    if (run.events !== log.events)
      throw new Error(`teamlog replay imported ${run.events} of the big Lead log's ${log.events} events`);
  await fs.rm(directory, { recursive: true, force: true });
  return {
    ...log,
    memory,
    bounded,
    sqlite,
    baselineMs: medianRun(baselines).elapsedMs,
    baselineRuns: baselines.length,
  };
};
