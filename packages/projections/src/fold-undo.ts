import type { RecordedEvent } from '@teamlog/store';

/**
 * An undo log for views folded in place while a store's unit stages its events
 * (docs/rules.md#one-pass-import): it remembers what undoing a unit's folds takes, so an aborted
 * unit leaves the views as they were at their last commit, not empty. A view store that keeps its
 * views in memory holds one (InMemoryViewStore); the inline runner asks it before each staged batch.
 */
export interface FoldUndo<S> {
  /** Before `events` are folded into `state`: whether `undo` could then undo their fold exactly; if so, it will. */
  admit(state: S, events: readonly RecordedEvent[]): boolean;
  /** A fold it did not admit was made, or one failed midway: `undo` can no longer restore the views. */
  spoil(): void;
  /** Undo every fold admitted since the last `forget`; false, changing nothing, when it cannot. */
  undo(): boolean;
  /** The folds were committed: there is nothing to undo. */
  forget(): void;
}
