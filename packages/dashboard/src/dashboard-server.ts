import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EventStore, type GlobalPosition, formatPosition } from '@teamlog/store';
import {
  type CommittedViewsReader,
  type EraRules,
  InMemoryViewStore,
  KeptAudit,
  type LoadedViews,
  ProjectionRunner,
  type ProjectionState,
  clearChangesInMemory,
  referenceEraRules,
  teamlogProjection,
} from '@teamlog/projections';
import { dashboardRequestHandler } from './dashboard-request-handler';
import { errorMessage } from './error-message';
import { ObservedViewStore } from './observed-view-store';
import { AsOfFolds, type AsOfFoldsOptions } from './as-of-folds';
import { ChainFindings } from './chain-findings';
import { LiveAnswers } from './live-answers';
import { KeptStatistics } from './kept-statistics';
import { KeptTeams } from './kept-teams';
import { MemoizedViews } from './memoized-views';
import type { AsOfParam } from './query-codecs';
import { ServerSentEvents } from './server-sent-events';
import { type AssetDirectories, defaultAssetDirectories } from './static-assets';
import { TeamMoments } from './team-moments';
import type { ViewsSource } from './views-source';

/** The port `teamlog serve` uses when none is given. */
export const defaultDashboardPort = 7420;

export interface DashboardServerOptions {
  /** Read only: the dashboard never appends. The caller keeps ownership (close it after `close()`). */
  readonly store: EventStore;
  /** Default 127.0.0.1: the dashboard has no authentication, so it listens locally unless told otherwise. */
  readonly host?: string;
  /** Default `defaultDashboardPort`; 0 picks a free port (read it from `port` or `url`). */
  readonly port?: number;
  readonly eraRules?: EraRules;
  /** Events the projection folds between two commits (each commit is one "change" to browsers). */
  readonly batchSize?: number;
  /** Where unexpected errors go (a 500 answer, the live projection stopping); default stderr. */
  readonly onError?: (error: unknown) => void;
  /** Where the page and the compiled browser modules are read from; defaults to this package's. */
  readonly assets?: AssetDirectories;
  /** Bounds on as-of views (each a fold of `$all` from the start): concurrency, queue, cache, time slice. */
  readonly asOf?: AsOfFoldsOptions;
  /**
   * Views the store's own database has committed (for example by `teamlog replay`), to start from
   * and fold only the newer events; read, never written. Without it the views are folded from zero.
   */
  readonly committedViews?: CommittedViewsReader;
}

/** Where the dashboard's views started, and how many events it folded before serving. */
export interface DashboardStart {
  readonly from: 'committed-views' | 'empty';
  /** The committed views' checkpoint it started from, or null. */
  readonly checkpoint: string | null;
  readonly eventsFolded: number;
}

export interface DashboardServer {
  /** `http://host:port/`, the page; the JSON API is under `/api` (GET /api lists the routes). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly start: DashboardStart;
  /** Resolves once the live views hold the event at this position. */
  waitFor(position: GlobalPosition): Promise<void>;
  /** Stop serving: ends the live streams, closes connections and stops the projection. The store stays open. */
  close(): Promise<void>;
}

/** Listening failed (the port is taken, the host is not local, ...). */
export class DashboardListenFailed extends Error {
  override readonly name = 'DashboardListenFailed';
  constructor(
    readonly host: string,
    readonly port: number,
    override readonly cause: unknown,
  ) {
    super(`the dashboard cannot listen on ${host}:${port}: ${errorMessage(cause)}`);
  }
}

const writeToStderr = (error: unknown): void => {
  process.stderr.write(
    `teamlog dashboard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
};

/** The store file's committed views, when there are any to start from; a bad view row is reported and the fold starts from zero. */
const committedViewsOf = async (
  options: DashboardServerOptions,
  onError: (error: unknown) => void,
): Promise<LoadedViews<ProjectionState> | undefined> => {
  if (options.committedViews === undefined) return undefined;
  try {
    return await options.committedViews.read();
  } catch (error) {
    onError(error);
    return undefined;
  }
};

const urlOf = (host: string, port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;

const listen = (server: Server, host: string, port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const failed = (error: unknown) => reject(new DashboardListenFailed(host, port, error));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * Serve the dashboard and its JSON API over views folded from the store. The views are kept in
 * memory (the dashboard writes nothing, not even a checkpoint): they start from the views a SQLite
 * store file has committed (if it holds some), are folded from `$all` after that before this
 * resolves, then follow every append, and each commit is pushed to open pages as a server-sent
 * "change" event.
 */
export const startDashboardServer = async (options: DashboardServerOptions): Promise<DashboardServer> => {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? defaultDashboardPort;
  const onError = options.onError ?? writeToStderr;
  const eraRules = options.eraRules ?? referenceEraRules;
  const events = new ServerSentEvents();
  const committed = await committedViewsOf(options, onError);
  // In memory: nothing writes the held ids folded after the committed views, so they stay in the state.
  const views = new ObservedViewStore(
    new InMemoryViewStore(teamlogProjection, clearChangesInMemory, committed),
    (checkpoint) => {
      try {
        events.send('change', { checkpoint: formatPosition(checkpoint) });
      } catch (error) {
        onError(error);
      }
    },
  );
  const runner = new ProjectionRunner<ProjectionState>(options.store, teamlogProjection, views, {
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
  });
  // The live views are the runner's folded state, which runs ahead of its committed checkpoint
  // while a batch commits: an answer is labelled with the position of what it shows.
  const checkpoint = (): string | null =>
    runner.foldedPosition === undefined ? null : formatPosition(runner.foldedPosition);
  const asOfFolds = new AsOfFolds(options.store, options.asOf);
  // The live views are read once per checkpoint, and their audit is kept from one checkpoint to
  // the next (kept-audit.ts), so a read after a change costs the change; an as-of fold once per state.
  const kept = { audit: new KeptAudit(eraRules), statistics: new KeptStatistics(), teams: new KeptTeams() };
  let live: { readonly checkpoint: string | null; readonly views: MemoizedViews } | undefined;
  const folded = new WeakMap<ProjectionState, MemoizedViews>();
  const liveViews = (): MemoizedViews => {
    const now = checkpoint();
    if (live === undefined || live.checkpoint !== now)
      live = { checkpoint: now, views: new MemoizedViews(runner.state, eraRules, kept) };
    return live.views;
  };
  const foldedViews = (state: ProjectionState): MemoizedViews => {
    const known = folded.get(state) ?? new MemoizedViews(state, eraRules);
    folded.set(state, known);
    return known;
  };
  const moments = new TeamMoments(options.store);
  const chains = new ChainFindings(options.store);
  const source: ViewsSource = {
    store: options.store,
    teamMoments: (team) => moments.read(team),
    chains: (baseOf) => chains.read(baseOf),
    views: async (asOf?: AsOfParam) =>
      asOf === undefined ? liveViews() : foldedViews(await asOfFolds.state(asOf, checkpoint())),
    checkpoint,
  };
  const eventsFolded = await runner.catchUp();
  // The kept reads are brought up to date by what changed; their first read is a whole one, taken
  // here before the server listens, so that no request pays for it.
  const warm = liveViews();
  warm.overview();
  warm.boundedStatistics();
  warm.teams();
  const start: DashboardStart = {
    from: committed === undefined ? 'empty' : 'committed-views',
    checkpoint: committed?.checkpoint === undefined ? null : formatPosition(committed.checkpoint),
    eventsFolded,
  };
  runner.start();
  const server = createServer(
    dashboardRequestHandler({
      source,
      events,
      answers: new LiveAnswers(),
      assets: options.assets ?? defaultAssetDirectories,
      onError,
    }),
  );
  let port: number;
  try {
    port = await listen(server, host, requestedPort);
  } catch (error) {
    await runner.stop().catch(onError);
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url: urlOf(host, port),
    host,
    port,
    start,
    waitFor: (position) => runner.waitFor(position),
    close: () => {
      closing ??= (async () => {
        events.closeAll();
        await closeServer(server);
        await runner.stop().catch(onError);
      })();
      return closing;
    },
  };
};
