import { GlobalPosition } from '@teamlog/store';

export interface LoadedViews<S> {
  readonly state: S;
  /** The position of the last event the views hold; undefined before the first event. */
  readonly checkpoint: GlobalPosition | undefined;
}

/**
 * Where a projection keeps its views and checkpoint. `commit` writes both atomically: after a
 * crash the views hold exactly the events up to the checkpoint, so none is skipped or applied twice.
 */
export interface ViewStore<S> {
  load(): LoadedViews<S>;
  commit(state: S, checkpoint: GlobalPosition): void;
  /** Empty the views and forget the checkpoint, atomically (the start of a rebuild). */
  reset(): LoadedViews<S>;
}
