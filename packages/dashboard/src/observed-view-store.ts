import type { GlobalPosition } from '@teamlog/store';
import type { LoadedViews, ViewStore } from '@teamlog/projections';

/** A view store that reports every commit, so the dashboard can tell browsers the views moved on. */
export class ObservedViewStore<S> implements ViewStore<S> {
  constructor(
    private readonly inner: ViewStore<S>,
    /** Called after the commit succeeded; must not throw (the runner would take it for a failed commit). */
    private readonly committed: (checkpoint: GlobalPosition) => void,
  ) {}

  load(): Promise<LoadedViews<S>> {
    return this.inner.load();
  }

  async commit(state: S, checkpoint: GlobalPosition): Promise<void> {
    await this.inner.commit(state, checkpoint);
    this.committed(checkpoint);
  }

  reset(): Promise<LoadedViews<S>> {
    return this.inner.reset();
  }
}
