import { type IdSource, uuidV7Ids } from '@teamlog/events';
import type { EventStore } from '@teamlog/store';
import type { AcceptedListener } from './accepted-notice';
import { steerPaths } from './steer-paths';
import { TeamEngine } from './team-engine';
import { type TeamLog, TeamLogService } from './team-log';

export interface TeamLogOptions {
  readonly store: EventStore;
  /** `uuidV7Ids` unless given (tests pass `sequentialIds`). */
  readonly ids?: IdSource;
  readonly clock?: () => Date;
  /** Told after each acceptance is durable (see AcceptedNotice); must not block. */
  readonly onAccepted?: AcceptedListener;
  /** Errors thrown by `onAccepted`; the acceptance stands. Default: a process warning. */
  readonly onListenerError?: (error: unknown) => void;
  /** Appends lost to other writers of one stream before ConcurrencyExhausted (default 1000). */
  readonly maxConflictRetries?: number;
  /**
   * The most streams whose folds are kept in memory between operations, least recently used out
   * first (default 1024); an evicted stream is read again when needed.
   */
  readonly foldCacheSize?: number;
}

export const defaultFoldCacheSize = 1024;

/** The engine reads time as a number: without a caller's clock, `Date.now` (no Date made per write). */
const nowOf = (clock: (() => Date) | undefined): (() => number) =>
  clock === undefined ? Date.now : () => clock().getTime();

const warn = (error: unknown): void => {
  process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'TeamLogListenerWarning');
};

/**
 * The composition root: the only place the steer paths (the host-only member adapters among them)
 * are built. Handles keep them in private fields and hand them to each send.
 */
export const createTeamLog = (options: TeamLogOptions): TeamLog => {
  const engine = new TeamEngine({
    store: options.store,
    ids: options.ids ?? uuidV7Ids,
    now: nowOf(options.clock),
    onAccepted: options.onAccepted ?? (() => undefined),
    onListenerError: options.onListenerError ?? warn,
    maxAttempts: options.maxConflictRetries ?? 1000,
    foldCacheSize: options.foldCacheSize ?? defaultFoldCacheSize,
  });
  return new TeamLogService(engine, steerPaths());
};
