import { type GlobalPosition, defaultRetryPolicy, retryDelay, sleep } from '@teamlog/store';
import { TeamlogProjections, type TeamlogProjectionsOptions } from '@teamlog/projections';
import type { PostgresEventStore } from '../postgres-event-store';
import { PostgresViewStore, type PostgresViewStoreOptions, defaultProjectionName } from './postgres-view-store';
import { ProjectionLease } from './projection-lease';

export type LeaderRole = 'waiting' | 'leading' | 'stopped';

export interface ProjectionLeaderOptions
  extends TeamlogProjectionsOptions,
    Omit<PostgresViewStoreOptions, 'connection'> {
  /** How long one wait for the lead lasts before the runner looks whether it was stopped (default 1000 ms). */
  readonly pollMs?: number;
  /** Called whenever the runner starts waiting, starts leading (views loaded, live run started) or stops. */
  readonly onRole?: (role: LeaderRole) => void;
  /** Why it stopped leading or could not wait, one line each, never with the password. */
  readonly log?: (line: string) => void;
}

/** A position no event reaches: waiting for it ends only when the live run stops. */
const beyondEveryEvent: GlobalPosition = { commit: 2n ** 64n, prepare: 0n };

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * One of several runners of a projection, on any number of hosts: the one holding the projection's
 * lead (a ProjectionLease) follows `$all` and commits the views on the lease's connection; the
 * others wait for the lead and the first to get it takes over when the leader's connection ends
 * (its process killed, its host gone, or `stop`). The new leader loads the committed views and
 * carries on after their checkpoint, so no event is applied twice or skipped.
 */
export class ProjectionLeader {
  private currentRole: LeaderRole | undefined;
  private current: TeamlogProjections | undefined;
  private readonly stopping = new AbortController();
  private readonly done: Promise<void>;
  private readonly log: (line: string) => void;

  private constructor(
    private readonly store: PostgresEventStore,
    private readonly options: ProjectionLeaderOptions,
  ) {
    this.log = options.log ?? store.context.log;
    this.done = this.run();
  }

  /** Start waiting for the lead (and lead once it is free) until `stop`. */
  static start(store: PostgresEventStore, options: ProjectionLeaderOptions = {}): ProjectionLeader {
    return new ProjectionLeader(store, options);
  }

  get role(): LeaderRole {
    return this.currentRole ?? 'waiting';
  }

  /** The live views while this runner leads, else undefined. */
  get projections(): TeamlogProjections | undefined {
    return this.current;
  }

  /** Stop: the live run ends, the lead is given up (another runner takes it), waiting ends. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.done;
  }

  private setRole(role: LeaderRole): void {
    if (role === this.currentRole) return;
    this.currentRole = role;
    this.options.onRole?.(role);
  }

  private async run(): Promise<void> {
    const { signal } = this.stopping;
    const projection = this.options.projection ?? defaultProjectionName;
    for (let failures = 0; !signal.aborted; ) {
      this.setRole('waiting');
      try {
        const lease = await ProjectionLease.acquire(this.store, {
          projection,
          signal,
          ...(this.options.pollMs === undefined ? {} : { pollMs: this.options.pollMs }),
        });
        if (lease === undefined) break;
        try {
          await this.lead(lease);
          failures = 0;
        } finally {
          this.current = undefined;
          await lease.release();
        }
      } catch (error) {
        failures += 1;
        this.log(`teamlog postgres: projection ${projection}: ${message(error)}; waiting for the lead again`);
        await sleep(retryDelay(failures, defaultRetryPolicy), signal);
      }
    }
    this.setRole('stopped');
  }

  /** Lead until stopped; rejects when the lease's connection is lost or the live run fails. */
  private async lead(lease: ProjectionLease): Promise<void> {
    const views = await PostgresViewStore.open(this.store, { ...this.options, connection: lease.views });
    const projections = await TeamlogProjections.open(this.store, views, this.options);
    projections.start();
    this.current = projections;
    this.setRole('leading');
    const { signal } = this.stopping;
    const stopped = signal.aborted
      ? Promise.resolve()
      : new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    const ended = await Promise.race([
      stopped.then(() => undefined),
      lease.lost,
      projections.waitFor(beyondEveryEvent).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
    ]);
    await projections.stop().catch(() => undefined);
    if (ended !== undefined && !signal.aborted) throw ended;
  }
}
