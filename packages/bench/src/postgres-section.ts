import { join } from 'node:path';
import { importSessionLogs } from '@teamlog/dsh';
import { createTestDatabase, startPostgresServer } from '@teamlog/postgres-testing';
import { openPostgresStore } from '@teamlog/store-postgres';
import type { BenchOptions } from './bench-options';
import type { ChildResult, ChildRequest } from './child-protocol';
import { medianRun } from './median-run';
import { type Target, formatRate, ratePerSecond, throughputRow } from './report-table';
import { runChild } from './run-child';
import { runSpread } from './run-spread';
import { type SectionContext, type SectionOutcome, noteOf } from './section-outcome';
import { writeTeamCorpus } from './write-team-corpus';

/** 64 concurrent writers: at least half the raw INSERT rate, and three times Emmett's; views written at half the rate of the same fold in memory. */
export const postgresTargets = {
  writers: 64,
  vsRawInserts: 0.5,
  vsEmmett: 3,
  viewsVsMemory: 0.5,
  viewsEvents: 100_000,
} as const;

type WriteCase = 'postgres-raw-insert' | 'postgres-append' | 'emmett-append' | 'postgres-send';
const writeCases: readonly WriteCase[] = ['postgres-raw-insert', 'postgres-append', 'emmett-append', 'postgres-send'];

const rateOf = (result: ChildResult): number => ratePerSecond(result.count, result.elapsedMs);

/** Each measurement on a database of its own, dropped after it. */
const onFreshDatabase = async (
  serverUrl: string,
  label: string,
  request: (url: string) => ChildRequest,
): Promise<ChildResult> => {
  const database = await createTestDatabase(serverUrl, `bench_${label}`);
  try {
    return await runChild(request(database.url));
  } finally {
    await database.drop();
  }
};

const rowsPerMessage = (result: ChildResult): number => {
  const value = result.detail.rowsPerMessage;
  return typeof value === 'number' && value > 0 ? value : 1;
};

const ratio = (target: number): Target => ({ kind: 'ratio-at-least', ratio: target });

interface ViewsMeasurement {
  readonly events: number;
  readonly memory: ChildResult;
  readonly postgres: ChildResult;
}

/**
 * Views catch-up: the bench's team corpus imported once into a database (not timed), then folded
 * from zero into PostgresViewStore and in memory, interleaved run by run (median of each).
 */
const measureViews = async (
  serverUrl: string,
  options: BenchOptions,
  workDirectory: string,
  runs: number,
  context: SectionContext,
): Promise<ViewsMeasurement> => {
  const events = Math.min(options.events, postgresTargets.viewsEvents);
  const root = join(workDirectory, 'postgres-views-corpus');
  context.progress(`postgres: views, a corpus of ${events.toLocaleString('en-US')} events imported into a database`);
  await writeTeamCorpus(root, { events, teams: options.teams, membersPerTeam: options.membersPerTeam });
  const database = await createTestDatabase(serverUrl, 'bench_views');
  try {
    const store = await openPostgresStore(database.url);
    try {
      await importSessionLogs(root, store);
    } finally {
      await store.close();
    }
    const results: Record<'memory' | 'postgres', ChildResult[]> = { memory: [], postgres: [] };
    for (let run = 1; run <= runs; run += 1) {
      for (const views of ['memory', 'postgres'] as const) {
        context.progress(
          `postgres: views catch-up into ${views === 'memory' ? 'memory' : 'PostgresViewStore'} (run ${run} of ${runs})`,
        );
        results[views].push(await runChild({ case: 'postgres-views', url: database.url, views }));
      }
    }
    return { events, memory: medianRun(results.memory), postgres: medianRun(results.postgres) };
  } finally {
    await database.drop();
  }
};

/**
 * Appends per second with 64 concurrent writers on PostgreSQL: PostgresEventStore against raw
 * INSERTs of the same rows (one autocommit transaction each, 64 connections) and against Emmett's
 * PostgreSQL event store, and TeamLog.send on the store against the same raw rate per stored
 * message, all with synchronous_commit on, interleaved run by run (median of three, with each
 * case's spread and the send's same-run ratios; one run with --quick).
 */
export const runPostgresSection = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const server = await startPostgresServer(context.progress);
  try {
    context.progress(`postgres: using ${server.origin}`);
    const { writers } = postgresTargets;
    const appends = options.messages;
    const runs = options.quick ? 1 : 3;
    const senders = Math.max(...options.senders);
    const requestOf = (kind: WriteCase, url: string): ChildRequest =>
      kind === 'postgres-send'
        ? { case: kind, url, members: options.sendMembers, senders, messages: options.messages }
        : { case: kind, url, writers, appends };
    // The sends run in the same rounds as their raw baseline: on a shared machine the commit rate
    // moves from minute to minute, and only cases measured side by side make a ratio.
    const results = new Map<WriteCase, ChildResult[]>(writeCases.map((kind) => [kind, []]));
    for (let run = 1; run <= runs; run += 1) {
      for (const kind of writeCases) {
        context.progress(
          kind === 'postgres-send'
            ? `postgres: TeamLog.send, ${options.messages} messages from ${senders} senders (run ${run} of ${runs})`
            : `postgres: ${kind}, ${appends} appends from ${writers} writers (run ${run} of ${runs})`,
        );
        results.get(kind)?.push(await onFreshDatabase(server.url, kind, (url) => requestOf(kind, url)));
      }
    }
    const runsOf = (kind: WriteCase): readonly ChildResult[] => results.get(kind) ?? [];
    const median = (kind: WriteCase): ChildResult => medianRun(runsOf(kind));
    const [raw, store, emmett, send] = [
      median('postgres-raw-insert'),
      median('postgres-append'),
      median('emmett-append'),
      median('postgres-send'),
    ];
    const sameRunRatios = runsOf('postgres-send').map((sent, index) => {
      const rawRun = runsOf('postgres-raw-insert')[index] as ChildResult;
      return (rateOf(sent) / (rateOf(rawRun) / rowsPerMessage(sent))).toFixed(2);
    });
    const views = await measureViews(server.url, options, workDirectory, runs, context);

    const rawRate = ratePerSecond(raw.count, raw.elapsedMs);
    const storeRate = ratePerSecond(store.count, store.elapsedMs);
    const perMessage = rowsPerMessage(send);
    const rows = [
      throughputRow(
        `Append, ${writers} writers (PostgresEventStore)`,
        'append',
        storeRate,
        'raw INSERTs',
        rawRate,
        ratio(postgresTargets.vsRawInserts),
      ),
      throughputRow(
        `Append, ${writers} writers (PostgresEventStore) vs Emmett`,
        'append',
        storeRate,
        'Emmett PostgreSQL',
        ratePerSecond(emmett.count, emmett.elapsedMs),
        ratio(postgresTargets.vsEmmett),
      ),
      throughputRow(
        `Send, ${senders} senders (TeamLog.send, PostgreSQL)`,
        'msg',
        ratePerSecond(send.count, send.elapsedMs),
        'raw INSERTs',
        rawRate / perMessage,
        ratio(postgresTargets.vsRawInserts),
      ),
      throughputRow(
        'Views catch-up from zero (PostgresViewStore)',
        'ev',
        ratePerSecond(views.postgres.count, views.postgres.elapsedMs),
        'the same fold in memory',
        ratePerSecond(views.memory.count, views.memory.elapsedMs),
        ratio(postgresTargets.viewsVsMemory),
      ),
    ];
    const notes = [
      `postgres server: ${server.origin}; synchronous_commit on for every case; ${runs === 1 ? 'one run' : `median of ${runs} interleaved runs`} per append and send case, each on a fresh database`,
      ...(runs === 1
        ? []
        : [
            runSpread('postgres raw INSERTs, spread', runsOf('postgres-raw-insert'), 'row'),
            runSpread('postgres appends, spread', runsOf('postgres-append'), 'append'),
            runSpread(`postgres send, ${senders} senders, spread`, runsOf('postgres-send'), 'msg'),
            `postgres send vs raw INSERTs, run by run: ${sameRunRatios.map((ratio) => `${ratio}x`).join(', ')}`,
          ]),
      noteOf('postgres raw INSERTs (one autocommit transaction each)', raw, 'rows'),
      noteOf('postgres appends (PostgresEventStore, exact expected revisions)', store, 'appends'),
      noteOf('postgres appends (Emmett 0.42, expected stream versions)', emmett, 'appends'),
      noteOf(`postgres send, ${senders} senders`, send, 'messages accepted'),
      `postgres send baseline: ${formatRate(rawRate / perMessage, 'msg')} (raw rows/s over ${perMessage.toFixed(2)} stored rows per accepted message)`,
      `postgres views: the team corpus (${views.events.toLocaleString('en-US')} events) read from $all of the same database in both cases; ${runs === 1 ? 'one run' : `median of ${runs} interleaved runs`}`,
      noteOf('postgres views catch-up (PostgresViewStore)', views.postgres, 'events'),
      noteOf('postgres views fold in memory (baseline)', views.memory, 'events'),
    ];
    return { rows, notes, profiles: [] };
  } finally {
    await server.stop();
  }
};
