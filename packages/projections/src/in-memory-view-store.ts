import { GlobalPosition } from '@teamlog/store';
import { Projection } from './projection';
import { LoadedViews, ViewStore } from './view-store';

/** Views kept only in this process: a restart rebuilds them from zero. */
export class InMemoryViewStore<S> implements ViewStore<S> {
  private current: LoadedViews<S>;

  constructor(
    private readonly projection: Projection<S>,
    /** Called after each commit, e.g. to forget change tracking a persistent store would have written. */
    private readonly afterCommit: (state: S) => void = () => undefined,
    /** Views to start from (folded up to their checkpoint elsewhere); by default the projection's initial state. */
    start?: LoadedViews<S>,
  ) {
    this.current = start ?? { state: projection.initial(), checkpoint: undefined };
  }

  load(): LoadedViews<S> {
    return this.current;
  }

  commit(state: S, checkpoint: GlobalPosition): void {
    this.current = { state, checkpoint };
    this.afterCommit(state);
  }

  reset(): LoadedViews<S> {
    this.current = { state: this.projection.initial(), checkpoint: undefined };
    return this.current;
  }
}
