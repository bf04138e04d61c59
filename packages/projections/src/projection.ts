import type { RecordedEvent } from '@teamlog/store';

/** A view built by folding `$all`: the runner feeds it every event exactly once, in global order. */
export interface Projection<S> {
  /** Names the projection's checkpoint. */
  readonly name: string;
  readonly initial: () => S;
  readonly evolve: (state: S, event: RecordedEvent) => S;
}
