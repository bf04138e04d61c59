import type { GlobalPosition } from '@teamlog/store';
import type { FoldUndo } from './fold-undo';
import type { Projection } from './projection';
import type { LoadedViews, SyncViewStore } from './view-store';

/** Views kept only in this process: a restart rebuilds them from zero. */
export class InMemoryViewStore<S> implements SyncViewStore<S> {
  private current: LoadedViews<S>;

  constructor(
    private readonly projection: Projection<S>,
    /** Called after each commit, e.g. to forget change tracking a persistent store would have written. */
    private readonly afterCommit: (state: S) => void = () => undefined,
    /** Views to start from (folded up to their checkpoint elsewhere); by default the projection's initial state. */
    start?: LoadedViews<S>,
    /** Undoes a fold made in place as a unit was staged, so an abort keeps what was committed (see restoreNow). */
    readonly stagedUndo?: FoldUndo<S>,
  ) {
    this.current = start ?? { state: projection.initial(), checkpoint: undefined };
  }

  load(): Promise<LoadedViews<S>> {
    return Promise.resolve(this.current);
  }

  commit(state: S, checkpoint: GlobalPosition): Promise<void> {
    this.commitNow(state, checkpoint);
    return Promise.resolve();
  }

  commitNow(state: S, checkpoint: GlobalPosition): void {
    this.current = { state, checkpoint };
    this.stagedUndo?.forget();
    this.afterCommit(state);
  }

  /**
   * The views as committed: the folds since the commit undone in place when the undo log admitted
   * every one of them; otherwise (a fold made in place cannot be undone) empty views.
   */
  restoreNow(): LoadedViews<S> {
    if (this.stagedUndo?.undo() === true) return this.current;
    this.current = { state: this.projection.initial(), checkpoint: undefined };
    return this.current;
  }

  reset(): Promise<LoadedViews<S>> {
    this.stagedUndo?.forget();
    this.current = { state: this.projection.initial(), checkpoint: undefined };
    return Promise.resolve(this.current);
  }
}
