import type { GlobalPosition } from '@teamlog/store';
import type { FoldUndo } from './fold-undo';

export interface LoadedViews<S> {
  readonly state: S;
  /** The position of the last event the views hold; undefined before the first event. */
  readonly checkpoint: GlobalPosition | undefined;
}

/**
 * The view-store port: where a projection keeps its views and checkpoint (in memory here; SQLite
 * and PostgreSQL adapters live with their stores). Asynchronous, so a server database fits it. `commit` writes both atomically: after a
 * crash the views hold exactly the events up to the checkpoint, so none is skipped or applied twice.
 */
export interface ViewStore<S> {
  load(): Promise<LoadedViews<S>>;
  /** Rejects with ViewsChangedElsewhere, writing nothing, when another runner committed since this one loaded. */
  commit(state: S, checkpoint: GlobalPosition): Promise<void>;
  /** Empty the views and forget the checkpoint, atomically (the start of a rebuild). */
  reset(): Promise<LoadedViews<S>>;
}

/**
 * A view store that can also load and commit synchronously, inside a transaction the caller is in
 * (the store's own commit, for an inline projection): the SQLite view store, the in-memory one.
 */
export interface SyncViewStore<S> extends ViewStore<S> {
  /** Throws ViewsChangedElsewhere, writing nothing, when another runner committed since this one loaded. */
  commitNow(state: S, checkpoint: GlobalPosition): void;
  /**
   * After the transaction a commit was part of rolled back: the views as durably committed, or, for
   * a store that cannot undo a fold made in place (memory), empty views a catch-up rebuilds.
   */
  restoreNow(): LoadedViews<S>;
  /**
   * Optional, while a store's unit is folded as it is staged (`CommitParticipant.stage`): move what
   * the folded state keeps only for its next commit and that grows with the unit (SQLite: the held
   * message ids) somewhere the next `commitNow` writes and `restoreNow` drops, so memory stays bounded.
   */
  setAside?(state: S): void;
  /**
   * Optional, for views folded in place in memory: the undo log `restoreNow` undoes a unit's staged
   * folds with (the runner asks it before each staged batch), so an aborted unit keeps what the
   * views held before it instead of emptying them.
   */
  readonly stagedUndo?: FoldUndo<S>;
}

export const isSyncViewStore = <S>(views: ViewStore<S>): views is SyncViewStore<S> =>
  'commitNow' in views &&
  typeof views.commitNow === 'function' &&
  'restoreNow' in views &&
  typeof views.restoreNow === 'function';
