import { performance } from 'node:perf_hooks';
import { importSessionLogs } from '@teamlog/dsh';
import { TeamlogProjections } from '@teamlog/projections';
import { type EventStore, HeadsOnlyEventStore } from '@teamlog/store';
import { sqliteProjections } from '@teamlog/store-sqlite';
import { openBenchSqliteStore } from './bench-sqlite-store';

export interface ReplayOutcome {
  readonly events: number;
  readonly files: number;
  readonly rejected: number;
  readonly folded: number;
  readonly projections: TeamlogProjections;
  /** The two phases of the replay: import with the views folded inline, then what the views still had to catch up (nothing). */
  readonly importMs: number;
  readonly viewsMs: number;
}

/**
 * Replay as `teamlog replay` runs it: the views fold inline while the logs under `root` are
 * imported into `store`, then catch up on anything left (nothing, unless the store cannot fold inline).
 */
export const replayLogs = async (
  root: string,
  store: EventStore,
  projectionsOf: (store: EventStore) => Promise<TeamlogProjections>,
): Promise<ReplayOutcome> => {
  const started = performance.now();
  const projections = await projectionsOf(store);
  const detach = projections.foldInline();
  const report = await importSessionLogs(root, store).finally(() => detach?.());
  const imported = performance.now();
  const folded = await projections.catchUp();
  const events = report.files.reduce((sum, file) => sum + file.events, 0);
  return {
    events,
    files: report.files.length,
    rejected: report.rejected + report.notSessionLogs,
    folded,
    projections,
    importMs: imported - started,
    viewsMs: performance.now() - imported,
  };
};

export interface ReplayTarget {
  readonly store: EventStore;
  readonly projectionsOf: (store: EventStore) => Promise<TeamlogProjections>;
  readonly close: () => Promise<void>;
}

/**
 * As `teamlog replay --store :memory:` runs: the store keeping only stream heads, the views in
 * memory and read once (`oneShot`, as the CLI opens them: replay-command.ts).
 */
export const inMemoryReplayTarget = (): ReplayTarget => ({
  store: new HeadsOnlyEventStore(),
  projectionsOf: (store) => TeamlogProjections.inMemory(store, { oneShot: true }),
  close: async () => undefined,
});

/**
 * The embedded default: events and views in one SQLite file (synchronous=FULL), opened as
 * `teamlog replay` opens a file it creates: a rollback journal for the import, WAL after it.
 */
export const sqliteReplayTarget = (file: string, unchained = false, writerThread = false): ReplayTarget => {
  const store = openBenchSqliteStore(file, unchained, writerThread, true);
  return { store, projectionsOf: () => sqliteProjections(store), close: () => store.close() };
};

/** What the views hold after a replay: the bench prints these so a replay that did nothing shows. */
export const viewCounts = (projections: TeamlogProjections): Record<string, number> => {
  const views = projections.views();
  const teams = views.teams();
  return {
    teams: teams.length,
    teamFailures: teams.filter((team) => team.failure !== undefined && team.failure !== null).length,
    members: teams.reduce((sum, team) => sum + team.members.length, 0),
    tasks: teams.reduce((sum, team) => sum + team.tasks.length, 0),
    inboxEntries: views.inbox().length,
    auditFindings: views.audit().length,
  };
};
