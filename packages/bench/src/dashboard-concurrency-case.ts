import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDashboardServer } from '@teamlog/dashboard';
import { importSessionLogs } from '@teamlog/dsh';
import { SqliteEventStore, sqliteCommittedViews, sqliteProjections } from '@teamlog/store-sqlite';
import { percentile } from './percentiles';
import { type ReportRow, type Target, formatRatio, formatTarget, verdictOf } from './report-table';
import { writeTeamCorpus } from './write-team-corpus';

/** The bound for plain dashboard reads (docs/benchmarks.md): p99 of 300 simultaneous requests on a 500k-event store. */
export const concurrentP99Target: Target = { kind: 'below', limit: 100, unit: 'ms' };
export const concurrentRequests = 300;
/** The store size the bound is stated for (one team: every event in one team's streams). */
export const concurrencyCorpusEvents = 500_000;

const childScript = join(__dirname, 'concurrent-requests-child.js');
const liveSendsScript = join(__dirname, 'live-sends-child.js');
/** How often the live phase's writer sends (docs/benchmarks.md#dashboard). */
export const liveSendIntervalMs = 5;

interface LiveSends {
  /** Stop sending; resolves with how many sends were accepted. */
  readonly stop: () => Promise<number>;
}

/** A team writing into the store file from another process, as beside `teamlog serve`, a send every `intervalMs`. */
const startLiveSends = (dbFile: string, intervalMs: number): Promise<LiveSends> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [liveSendsScript, dbFile, String(intervalMs)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let ready = false;
    const ended = new Promise<number>((done, failed) =>
      child.on('close', (code) => {
        const last = stdout.trim().split('\n').at(-1) ?? '';
        if (code === 0 && last.startsWith('{')) done((JSON.parse(last) as { sent: number }).sent);
        else failed(new Error(`the live writer exited ${code}: ${stderr.trim()}`));
      }),
    );
    ended.catch(reject);
    child.on('error', reject);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (ready || !stdout.includes('ready\n')) return;
      ready = true;
      resolve({
        stop: () => {
          child.stdin.end();
          return ended;
        },
      });
    });
  });

/** 300 simultaneous GETs of `url` from another process (three bursts; the last is timed). */
const burst = (url: string): Promise<number[]> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, url, String(concurrentRequests), '3'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout) as number[])
        : reject(new Error(`the request child exited ${code}: ${stderr.trim()}`)),
    );
  });

/** The routes a page load asks for, plain (no asOf); the route list `/api` is the baseline: same server, no views. */
const plainRoutes = [
  '/api/overview',
  '/api/teams',
  '/api/sessions?withInbox=true',
  '/api/legacy-mailbox',
  '/api/audit',
  '/api/failures',
  '/api/statistics',
];

const worstOf = (measured: ReadonlyMap<string, number[]>): { readonly path: string; readonly p99: number } =>
  [...measured].reduce(
    (worst, [path, latencies]) => {
      const p99 = percentile(latencies, 99);
      return p99 > worst.p99 ? { path, p99 } : worst;
    },
    { path: '-', p99: 0 },
  );

interface LiveMeasurement {
  readonly baseline: number[];
  readonly measured: Map<string, number[]>;
  readonly sent: number;
  readonly elapsedMs: number;
}

/** The baseline and every plain route again, while a team in another process keeps sending into the store. */
const measureLive = async (dbFile: string, url: (path: string) => string): Promise<LiveMeasurement> => {
  const sends = await startLiveSends(dbFile, liveSendIntervalMs);
  const started = performance.now();
  try {
    const baseline = await burst(url('/api'));
    const measured = new Map<string, number[]>();
    for (const path of plainRoutes) measured.set(path, await burst(url(path)));
    const elapsedMs = performance.now() - started;
    return { baseline, measured, sent: await sends.stop(), elapsedMs };
  } catch (error) {
    await sends.stop().catch(() => 0);
    throw error;
  }
};

export interface ConcurrencyOutcome {
  readonly rows: readonly ReportRow[];
  readonly notes: readonly string[];
}

/**
 * Plain dashboard reads under load: a one-team store of `events` events whose views `teamlog
 * replay` committed, served by the dashboard in this process, and 300 simultaneous requests of
 * each plain route from a child process, against the same burst of `/api` (the route list, which
 * reads no view) in the same run.
 */
export const runDashboardConcurrency = async (
  events: number,
  workDirectory: string,
  progress: (text: string) => void,
): Promise<ConcurrencyOutcome> => {
  progress(`dashboard: writing and importing a one-team ${events.toLocaleString('en-US')}-event corpus`);
  const corpus = await writeTeamCorpus(join(workDirectory, 'dashboard-concurrency-corpus'), {
    events,
    teams: 1,
    membersPerTeam: 8,
  });
  const dbFile = join(workDirectory, 'dashboard-concurrency.sqlite');
  const store = SqliteEventStore.open(dbFile);
  try {
    // As `teamlog replay --store` does: the views folded inline and committed with the events.
    const projections = await sqliteProjections(store);
    await projections.catchUp();
    const detach = projections.foldInline();
    try {
      await importSessionLogs(corpus.root, store);
    } finally {
      detach?.();
    }
    await projections.catchUp();
    const started = performance.now();
    const server = await startDashboardServer({ store, port: 0, committedViews: sqliteCommittedViews(store) });
    const startMs = performance.now() - started;
    try {
      const url = (path: string) => new URL(path, server.url).toString();
      const first = performance.now();
      await burst(url('/api/overview'));
      const firstBurstMs = performance.now() - first;
      const baseline = await burst(url('/api'));
      const measured = new Map<string, number[]>();
      for (const path of plainRoutes) {
        progress(`dashboard: ${concurrentRequests} simultaneous ${path}`);
        measured.set(path, await burst(url(path)));
      }
      progress(`dashboard: the same requests while a team sends every ${liveSendIntervalMs} ms from another process`);
      const live = await measureLive(dbFile, url);
      const baselineP99 = percentile(baseline, 99);
      const overviewP99 = percentile(measured.get('/api/overview') ?? [], 99);
      const worst = Math.max(...[...measured.values()].map((latencies) => percentile(latencies, 99)));
      const liveBaselineP99 = percentile(live.baseline, 99);
      const liveOverviewP99 = percentile(live.measured.get('/api/overview') ?? [], 99);
      const liveWorst = worstOf(live.measured);
      const row = (measure: string, p99: number, against = baselineP99): ReportRow => ({
        measure,
        value: `${p99.toFixed(1)} ms`,
        baseline: `/api ${against.toFixed(1)} ms`,
        ratio: formatRatio(against <= 0 ? 0 : p99 / against),
        target: formatTarget(concurrentP99Target),
        verdict: verdictOf(concurrentP99Target, p99),
      });
      return {
        rows: [
          row(
            `Dashboard: p99 of ${concurrentRequests} simultaneous /api/overview (${events.toLocaleString('en-US')} events, one team)`,
            overviewP99,
          ),
          row(
            `Dashboard: worst p99 of ${concurrentRequests} simultaneous requests over the page's plain routes`,
            worst,
          ),
          row(
            `Dashboard, live (a send every ${liveSendIntervalMs} ms): p99 of ${concurrentRequests} simultaneous /api/overview`,
            liveOverviewP99,
            liveBaselineP99,
          ),
          row(
            `Dashboard, live (a send every ${liveSendIntervalMs} ms): worst p99 over the page's plain routes (${liveWorst.path})`,
            liveWorst.p99,
            liveBaselineP99,
          ),
        ],
        notes: [
          `dashboard: server start over committed views ${startMs.toFixed(0)} ms; the first three bursts of /api/overview (the views read once, then shared) took ${firstBurstMs.toFixed(0)} ms`,
          `dashboard: p99 of ${concurrentRequests} simultaneous requests (child process, kept-alive connections, last of three bursts): ${[...measured].map(([path, latencies]) => `${path} ${percentile(latencies, 99).toFixed(1)} ms`).join(', ')}; /api ${baselineP99.toFixed(1)} ms`,
          `dashboard, live: ${live.sent} sends accepted in ${(live.elapsedMs / 1000).toFixed(1)} s by a team in another process while the bursts ran (a send every ${liveSendIntervalMs} ms after the previous one); p99 and worst: ${[...live.measured].map(([path, latencies]) => `${path} ${percentile(latencies, 99).toFixed(1)}/${Math.max(...latencies).toFixed(1)} ms`).join(', ')}; /api ${liveBaselineP99.toFixed(1)}/${Math.max(...live.baseline).toFixed(1)} ms`,
        ],
      };
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
  }
};
