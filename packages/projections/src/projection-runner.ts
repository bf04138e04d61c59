import { performance } from 'node:perf_hooks';
import {
  type CommitParticipant,
  type Detach,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
  type Subscription,
  comparePositions,
} from '@teamlog/store';
import { CommitCadence } from './commit-cadence';
import type { Projection } from './projection';
import { ProjectionError, isProjectionError } from './projection-errors';
import { type LoadedViews, type SyncViewStore, type ViewStore, isSyncViewStore } from './view-store';

export interface ProjectionRunnerOptions {
  /** The most events folded between two commits (default 10 000). */
  readonly batchSize?: number;
  /**
   * The longest time, in ms, between the first event folded after a commit and the next commit
   * (default 1000). A live run also commits whenever the feed goes quiet.
   */
  readonly commitIntervalMs?: number;
  /** Monotonic milliseconds for `commitIntervalMs` (tests pass a fake one). */
  readonly monotonicClock?: () => number;
}

export const defaultBatchSize = 10_000;
export const defaultCommitIntervalMs = 1_000;

interface Waiter {
  readonly position: GlobalPosition;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

const idle = Symbol('idle');
const nextTurn = (): Promise<typeof idle> => new Promise((resolve) => setImmediate(() => resolve(idle)));

/**
 * Feeds a projection from the store's global feed, starting after its checkpoint, and commits the
 * views with the checkpoint by size and time (CommitCadence), and in a live run whenever the feed
 * goes quiet. Either `catchUp` (read to the current end) or `start` (a
 * catch-up subscription that keeps following) runs at a time.
 */
export class ProjectionRunner<S> {
  private current: S | undefined;
  private loading: Promise<void> | undefined;
  private position: GlobalPosition | undefined;
  /** The last event folded into `current`; ahead of `position` until the next commit. */
  private appliedPosition: GlobalPosition | undefined;
  private activity: string | undefined;
  private live: { readonly stopped: AbortController; readonly done: Promise<void> } | undefined;
  private subscription: Subscription | undefined;
  private liveFailure: Error | undefined;
  private waiters: Waiter[] = [];
  private readonly newCadence: () => CommitCadence;

  constructor(
    private readonly store: EventStore,
    private readonly projection: Projection<S>,
    private readonly views: ViewStore<S>,
    options: ProjectionRunnerOptions = {},
  ) {
    const batchSize = Math.max(1, options.batchSize ?? defaultBatchSize);
    const intervalMs = Math.max(0, options.commitIntervalMs ?? defaultCommitIntervalMs);
    const now = options.monotonicClock ?? (() => performance.now());
    this.newCadence = () => new CommitCadence(batchSize, intervalMs, now);
  }

  /** Load the committed views (once); every other operation does it first. */
  load(): Promise<void> {
    this.loading ??= this.views.load().then(
      (loaded) => this.adopt(loaded),
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /** The folded views; `load` (or any operation) must have completed. */
  get state(): S {
    if (this.current === undefined)
      throw new ProjectionError({ code: 'ProjectionNotLoaded', projection: this.projection.name });
    return this.current;
  }

  /** The position of the last event the committed views hold. */
  get checkpoint(): GlobalPosition | undefined {
    return this.position;
  }

  /**
   * The position of the last event `state` holds: ahead of `checkpoint` while a batch waits for its
   * commit (the state is folded before it is committed), so a reader that labels what it read from
   * `state` uses this one.
   */
  get foldedPosition(): GlobalPosition | undefined {
    return this.appliedPosition ?? this.position;
  }

  /** Fold every event after the checkpoint up to the current end of `$all`; returns how many. */
  async catchUp(): Promise<number> {
    return this.exclusively('catching up', async () => {
      await this.load();
      return this.readToEnd();
    });
  }

  /** Empty the views and fold `$all` from the beginning. */
  async rebuild(): Promise<number> {
    return this.exclusively('rebuilding', async () => {
      await this.load();
      this.adopt(await this.views.reset());
      return this.readToEnd();
    });
  }

  /**
   * Fold inline: take part in the store's commits (CommitParticipant), folding the events each
   * commit writes and committing the views with them, checkpoint included: in the same transaction
   * when the views live in the event store's own database (SQLite). Nothing is read back. Until
   * detached, no catch-up, rebuild or live run runs beside it. Undefined when the store or the view
   * store cannot (a server store, an async-only view store): catch up instead. Load first.
   */
  foldInline(): Detach | undefined {
    const { store, views } = this;
    if (store.participate === undefined || !isSyncViewStore(views)) return undefined;
    if (this.current === undefined)
      throw new ProjectionError({ code: 'ProjectionNotLoaded', projection: this.projection.name });
    if (this.activity !== undefined)
      throw new ProjectionError({ code: 'ProjectionBusy', projection: this.projection.name, activity: this.activity });
    this.activity = 'folding inline';
    let attached = true;
    const detachStore = store.participate(this.inlineParticipant(views, () => detach()));
    const detach: Detach = () => {
      if (!attached) return;
      attached = false;
      detachStore();
      this.activity = undefined;
    };
    return detach;
  }

  private inlineParticipant(views: SyncViewStore<S>, detach: Detach): CommitParticipant {
    const runner = this;
    let pending: GlobalPosition | undefined;
    let movedElsewhere = false;
    const undo = views.stagedUndo;
    const { evolveBatch, foldsRunEndsOf } = this.projection;
    return {
      ...(evolveBatch === undefined || foldsRunEndsOf === undefined ? {} : { foldsRunEndsOf }),
      get checkpoint() {
        return runner.appliedPosition;
      },
      ...(undo === undefined
        ? {}
        : { undoesStaged: (events: readonly RecordedEvent[]) => undo.admit(this.state, events) }),
      stage: (events) => {
        pending = this.applyAll(events) ?? pending;
        views.setAside?.(this.state);
      },
      prepare: (events) => {
        try {
          pending = this.applyAll(events) ?? pending;
        } catch (error) {
          // Folded partly, and not as the undo log admitted: an abort can only empty the views.
          undo?.spoil();
          throw error;
        }
        if (pending === undefined) return;
        try {
          views.commitNow(this.state, pending);
        } catch (error) {
          // Another runner committed these views: leave them to it, and to a later catch-up.
          if (!isProjectionError(error, 'ViewsChangedElsewhere')) throw error;
          movedElsewhere = true;
        }
      },
      committed: () => {
        if (movedElsewhere) {
          this.adopt(views.restoreNow());
          detach();
        } else if (pending !== undefined) {
          this.position = pending;
          this.resolveWaiters();
        }
        pending = undefined;
      },
      aborted: () => {
        pending = undefined;
        this.adopt(views.restoreNow());
      },
    };
  }

  /** Follow `$all` from the checkpoint until `stop`. */
  start(): void {
    if (this.activity !== undefined)
      throw new ProjectionError({ code: 'ProjectionBusy', projection: this.projection.name, activity: this.activity });
    this.activity = 'following the store';
    this.liveFailure = undefined;
    const stopped = new AbortController();
    const done = this.followUntilStopped(stopped.signal).catch((error: unknown) => {
      this.liveFailure = new ProjectionError({
        code: 'ProjectionStopped',
        projection: this.projection.name,
        cause: error,
      });
      this.rejectWaiters(this.liveFailure);
    });
    this.live = { stopped, done };
  }

  async stop(): Promise<void> {
    const live = this.live;
    if (live === undefined) return;
    live.stopped.abort();
    await this.subscription?.unsubscribe();
    await live.done;
    this.live = undefined;
    this.subscription = undefined;
    this.activity = undefined;
    this.rejectWaiters(new ProjectionError({ code: 'ProjectionStopped', projection: this.projection.name }));
    if (this.liveFailure !== undefined) throw this.liveFailure;
  }

  /** Resolves once the committed views hold the event at `position` (use with `start`). */
  waitFor(position: GlobalPosition): Promise<void> {
    if (this.position !== undefined && comparePositions(this.position, position) >= 0) return Promise.resolve();
    if (this.liveFailure !== undefined) return Promise.reject(this.liveFailure);
    return new Promise((resolve, reject) => this.waiters.push({ position, resolve, reject }));
  }

  private async exclusively<T>(activity: string, run: () => Promise<T>): Promise<T> {
    if (this.activity !== undefined)
      throw new ProjectionError({ code: 'ProjectionBusy', projection: this.projection.name, activity: this.activity });
    this.activity = activity;
    try {
      return await run();
    } finally {
      this.activity = undefined;
    }
  }

  private async readToEnd(): Promise<number> {
    let applied = 0;
    for (;;) {
      const pass = await this.readPass();
      applied += pass.applied;
      if (pass.complete) return applied;
    }
  }

  /** One read of `$all` from the checkpoint; incomplete when another runner moved the views meanwhile. */
  private async readPass(): Promise<{ readonly applied: number; readonly complete: boolean }> {
    let applied = 0;
    let pending: GlobalPosition | undefined;
    const cadence = this.newCadence();
    for await (const event of this.store.readAll({ fromPosition: this.position ?? 'start' })) {
      if (!this.apply(event)) continue;
      applied += 1;
      pending = event.position;
      if (cadence.foldedOne()) {
        if (!(await this.commit(pending))) return { applied, complete: false };
        cadence.committed();
      }
    }
    if (cadence.pending > 0 && pending !== undefined && !(await this.commit(pending)))
      return { applied, complete: false };
    return { applied, complete: true };
  }

  /** Follow until stopped; a new subscription whenever another runner moved the views under this one. */
  private async followUntilStopped(stopped: AbortSignal): Promise<void> {
    await this.load();
    while (!stopped.aborted) {
      const subscription = this.store.subscribeToAll({ fromPosition: this.position ?? 'start' });
      this.subscription = subscription;
      try {
        if ((await this.follow(subscription)) === 'ended') return;
      } finally {
        await subscription.unsubscribe();
      }
    }
  }

  private async follow(subscription: Subscription): Promise<'ended' | 'views-moved'> {
    const events = subscription[Symbol.asyncIterator]();
    let pending: GlobalPosition | undefined;
    const cadence = this.newCadence();
    let next = events.next();
    for (;;) {
      // Commit when the feed has nothing more for now: waiting for appends should not hold views back.
      const result = cadence.pending === 0 ? await next : await Promise.race([next, nextTurn()]);
      if (result === idle) {
        if (!(await this.commit(pending as GlobalPosition))) return 'views-moved';
        cadence.committed();
        continue;
      }
      if (result.done === true) break;
      next = events.next();
      if (!this.apply(result.value)) continue;
      pending = result.value.position;
      if (cadence.foldedOne()) {
        if (!(await this.commit(pending))) return 'views-moved';
        cadence.committed();
      }
    }
    if (cadence.pending > 0 && pending !== undefined && !(await this.commit(pending))) return 'views-moved';
    return 'ended';
  }

  /** Fold one event; an event at or before the checkpoint is never applied again. */
  private apply(event: RecordedEvent): boolean {
    if (this.appliedPosition !== undefined && comparePositions(event.position, this.appliedPosition) <= 0) return false;
    this.current = this.projection.evolve(this.state, event);
    this.appliedPosition = event.position;
    return true;
  }

  /**
   * Fold a commit's events (positions ascend in it): those after the checkpoint, through the
   * projection's `evolveBatch` when it has one. Returns the last one's position, if any was folded.
   */
  private applyAll(events: readonly RecordedEvent[]): GlobalPosition | undefined {
    const applied = this.appliedPosition;
    let from = 0;
    if (applied !== undefined)
      while (from < events.length && comparePositions((events[from] as RecordedEvent).position, applied) <= 0)
        from += 1;
    if (from === events.length) return undefined;
    const { evolveBatch } = this.projection;
    if (evolveBatch === undefined) {
      // Past the checkpoint from here on: each event is folded without comparing its position.
      const { projection } = this;
      for (let index = from; index < events.length; index += 1) {
        const event = events[index] as RecordedEvent;
        this.current = projection.evolve(this.state, event);
        this.appliedPosition = event.position;
      }
    } else {
      this.current = evolveBatch(this.state, events, from);
      this.appliedPosition = (events[events.length - 1] as RecordedEvent).position;
    }
    return this.appliedPosition;
  }

  /**
   * Commit the folded views up to `position`. False when another runner had committed them
   * meanwhile: the runner then holds the views as that runner left them (nothing of its own batch
   * was written) and carries on after their checkpoint.
   */
  private async commit(position: GlobalPosition): Promise<boolean> {
    try {
      await this.views.commit(this.state, position);
    } catch (error) {
      // The folded state is ahead of what was kept: go back to the committed views.
      this.adopt(await this.views.load());
      if (isProjectionError(error, 'ViewsChangedElsewhere')) {
        this.resolveWaiters();
        return false;
      }
      throw new ProjectionError({
        code: 'ProjectionCommitFailed',
        projection: this.projection.name,
        position,
        cause: error,
      });
    }
    this.position = position;
    this.resolveWaiters();
    return true;
  }

  private adopt(loaded: LoadedViews<S>): void {
    this.current = loaded.state;
    this.position = loaded.checkpoint;
    this.appliedPosition = loaded.checkpoint;
  }

  private resolveWaiters(): void {
    const position = this.position;
    if (position === undefined) return;
    const ready = this.waiters.filter((waiter) => comparePositions(position, waiter.position) >= 0);
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    ready.forEach((waiter) => waiter.resolve());
  }

  private rejectWaiters(error: Error): void {
    const waiting = this.waiters;
    this.waiters = [];
    waiting.forEach((waiter) => waiter.reject(error));
  }
}
