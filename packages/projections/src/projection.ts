import type { RecordedEvent } from '@teamlog/store';

/** A view built by folding `$all`: the runner feeds it every event exactly once, in global order. */
export interface Projection<S> {
  /** Names the projection's checkpoint. */
  readonly name: string;
  readonly initial: () => S;
  readonly evolve: (state: S, event: RecordedEvent) => S;
  /**
   * `evolve` over `events[from..]`, each in turn, when the projection can fold some runs of them
   * in one update (a commit's events, handed over together); the views must come out the same.
   */
  readonly evolveBatch?: (state: S, events: readonly RecordedEvent[], from: number) => S;
  /**
   * With `evolveBatch`: an event type a run of which `evolveBatch` folds from the run's first and
   * last events alone, so a store may leave out the ones between (CommitParticipant.foldsRunEndsOf).
   */
  readonly foldsRunEndsOf?: string;
}
