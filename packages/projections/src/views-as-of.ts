import {
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
  comparePositions,
  sessionIdOfStream,
} from '@teamlog/store';
import { eventClockOf } from './event-clock';
import { type ProjectionState, clearChanges } from './projection-state';
import { teamlogProjection } from './teamlog-projection';

/**
 * A moment to build the views at. `position`: every event up to and including it. `time`: each
 * session stream up to its first event later than `time` (event time is the log's wall clock,
 * which may go backwards, so a stream is cut at that event rather than filtered); headers and
 * other streams whole.
 */
export type AsOf = { readonly position: GlobalPosition } | { readonly time: Date | number };

const timeOf = (asOf: { readonly time: Date | number }): number =>
  typeof asOf.time === 'number' ? asOf.time : asOf.time.getTime();

type Admission = (event: RecordedEvent) => 'fold' | 'skip' | 'stop';

const admission = (asOf: AsOf): Admission => {
  if ('position' in asOf) return (event) => (comparePositions(event.position, asOf.position) <= 0 ? 'fold' : 'stop');
  const limit = timeOf(asOf);
  const cut = new Set<string>();
  return (event) => {
    if (sessionIdOfStream(event.streamName) === undefined) return 'fold';
    if (cut.has(event.streamName)) return 'skip';
    if (eventClockOf(event).time <= limit) return 'fold';
    cut.add(event.streamName);
    return 'skip';
  };
};

export interface FoldAsOfOptions {
  /**
   * Awaited every `pauseEvery` events: a server passes a yield to its event loop, so one long fold
   * cannot hold up other requests.
   */
  readonly pause?: () => Promise<void>;
  readonly pauseEvery?: number;
}

/** Fold the views from the beginning of `$all` as of a position or a time, in memory. */
export const foldViewsAsOf = async (
  store: EventStore,
  asOf: AsOf,
  options: FoldAsOfOptions = {},
): Promise<ProjectionState> => {
  let state = teamlogProjection.initial();
  const admit = admission(asOf);
  const every = options.pauseEvery ?? 256;
  let count = 0;
  for await (const event of store.readAll()) {
    count += 1;
    if (options.pause !== undefined && count % every === 0) await options.pause();
    const verdict = admit(event);
    if (verdict === 'stop') break;
    if (verdict === 'fold') state = teamlogProjection.evolve(state, event);
  }
  clearChanges(state);
  return state;
};
