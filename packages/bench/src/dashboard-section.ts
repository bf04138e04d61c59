import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDashboardServer } from '@teamlog/dashboard';
import { importSessionLogs } from '@teamlog/dsh';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import type { BenchOptions } from './bench-options';
import { type ReportRow, type Target, formatRatio, formatTarget, verdictOf } from './report-table';
import type { SectionContext, SectionOutcome } from './section-outcome';
import { concurrencyCorpusEvents, runDashboardConcurrency } from './dashboard-concurrency-case';
import { writeTeamCorpus } from './write-team-corpus';

export const plainP99Target: Target = { kind: 'below', limit: 200, unit: 'ms' };

/** The dashboard's as-of folds read the whole store; docs/benchmarks.md states the size they are measured at. */
const corpusEvents = 120_000;
const plainRequests = 200;
const asOfRequests = 50;

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const fetchStatus = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    }).on('error', reject);
  });

const percentile = (values: readonly number[], share: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
};

/** Plain requests one after another, each timed. */
const timePlainRequests = async (url: string): Promise<number[]> => {
  const latencies: number[] = [];
  for (let n = 0; n < plainRequests; n += 1) {
    const started = performance.now();
    await fetchStatus(url);
    latencies.push(performance.now() - started);
  }
  return latencies;
};

/**
 * The latency of plain dashboard requests (`/api/overview`) while 50 as-of requests (each a
 * fold of `$all` from the start, at 50 different moments) are in flight, against the same plain
 * requests on an idle server, in one process on one store.
 */
const runAsOfLoad = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const events = Math.min(options.events, corpusEvents);
  context.progress(`dashboard: writing and importing a ${events.toLocaleString('en-US')}-event corpus`);
  const corpus = await writeTeamCorpus(join(workDirectory, 'dashboard-corpus'), {
    events,
    teams: options.teams,
    membersPerTeam: options.membersPerTeam,
  });
  const store = SqliteEventStore.open(join(workDirectory, 'dashboard.sqlite'));
  try {
    await importSessionLogs(corpus.root, store);
    const server = await startDashboardServer({ store, port: 0 });
    try {
      const plain = new URL('/api/overview', server.url).toString();
      context.progress('dashboard: plain requests on an idle server');
      await timePlainRequests(plain);
      const idle = await timePlainRequests(plain);
      context.progress(`dashboard: plain requests while ${asOfRequests} as-of requests run`);
      const started = performance.now();
      const moments = Array.from({ length: asOfRequests }, (_, n) =>
        new Date(Date.UTC(2026, 8, 1) + n * 3_600_000).toISOString(),
      );
      const folds = moments.map(async (moment) => ({
        status: await fetchStatus(new URL(`/api/overview?asOf=${moment}`, server.url).toString()),
        at: performance.now() - started,
      }));
      const loaded = await timePlainRequests(plain);
      const answers = await Promise.all(folds);
      const idleP99 = percentile(idle, 0.99);
      const loadedP99 = percentile(loaded, 0.99);
      const served = answers.filter((answer) => answer.status === 200).length;
      const busy = answers.filter((answer) => answer.status === 503).length;
      const row: ReportRow = {
        measure: `Dashboard: p99 of plain requests while ${asOfRequests} as-of requests run (${events.toLocaleString('en-US')} events)`,
        value: `${loadedP99.toFixed(1)} ms`,
        baseline: `idle server ${idleP99.toFixed(1)} ms`,
        ratio: formatRatio(idleP99 <= 0 ? 0 : loadedP99 / idleP99),
        target: formatTarget(plainP99Target),
        verdict: verdictOf(plainP99Target, loadedP99),
      };
      return {
        rows: [row],
        notes: [
          `dashboard: plain /api/overview p50 ${percentile(loaded, 0.5).toFixed(1)} ms, p99 ${loadedP99.toFixed(1)} ms, max ${percentile(loaded, 1).toFixed(1)} ms under load (idle p50 ${percentile(idle, 0.5).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms), ${plainRequests} requests each`,
          `dashboard: of ${asOfRequests} as-of requests at distinct moments, ${served} answered 200 (one fold at a time, each yielding every 8 ms), ${busy} answered 503 (queue of 8 full), ${answers.length - served - busy} other; the last answered after ${(Math.max(...answers.map((answer) => answer.at)) / 1000).toFixed(2)} s`,
        ],
        profiles: [],
      };
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
    agent.destroy();
  }
};

/** The as-of load above, then plain reads under 300 simultaneous requests on a one-team store of up to 500k events. */
export const runDashboardSection = async (
  options: BenchOptions,
  workDirectory: string,
  context: SectionContext,
): Promise<SectionOutcome> => {
  const asOf = await runAsOfLoad(options, workDirectory, context);
  const concurrency = await runDashboardConcurrency(
    Math.min(options.events, concurrencyCorpusEvents),
    workDirectory,
    context.progress,
  );
  return {
    rows: [...asOf.rows, ...concurrency.rows],
    notes: [...asOf.notes, ...concurrency.notes],
    profiles: asOf.profiles,
  };
};
