import { type SessionId, isStoredEventMetadata } from '@teamlog/events';
import { type RecordedEvent, sessionIdOfStream } from '@teamlog/store';
import { evolveProjection, evolveSessionEvent } from './evolve-projection';
import type { ProjectionState } from './projection-state';
import type { SessionFacts } from './session-facts';

/** The type whose runs `evolveProjectionBatch` folds as one update, from their first and last events. */
export const chunkType = 'assistant/chunk';

/**
 * Whether `event` continues a run of chunk events of `stream` for the run fold: an
 * `assistant/chunk` of the same stream whose metadata is not a normalised fixture's. Such an event
 * is no catalog type, Team record or inbox event, and moves no lifecycle once one event of its
 * session was folded, so folding it changes only the session's event count and last time.
 */
const continuesRun = (event: RecordedEvent, stream: RecordedEvent['streamName']): boolean => {
  if (event.type !== chunkType || event.streamName !== stream) return false;
  const { metadata } = event;
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && !('normalised' in metadata);
};

/** The time `evolveProjection` folds for an event of a run (see `sessionEventOf`): its metadata's, else when it was recorded. */
const timeOf = (event: RecordedEvent): number =>
  isStoredEventMetadata(event.metadata) ? event.metadata.time : event.recordedAt.getTime();

/**
 * The fold of the events of a run after its first, in one update: what `evolveProjection` does
 * for each of them (the count to the last one's seq, the last time its time) without a session
 * event per member. Revisions of a stream ascend within a commit, so the last holds the count.
 */
const foldRunTail = (facts: SessionFacts | undefined, last: RecordedEvent): void => {
  if (facts === undefined) return;
  const seq = Number(last.revision) - (facts.superseded?.base ?? 0);
  if (seq + 1 > facts.eventCount) facts.eventCount = seq + 1;
  facts.lastTime = timeOf(last);
};

/**
 * `evolveProjection` over `events[from..]`, with a session's facts looked up once per run of its
 * stream's events (each event's fold hands on the facts the state holds after it), and a run of
 * chunk events (a V0/V1 packed row's members, most of such a log) folded as one view update: its
 * first event like every other, the rest at once. The views come out as folding each event would
 * leave them (a test checks it on every fixture).
 */
export const evolveProjectionBatch = (
  state: ProjectionState,
  events: readonly RecordedEvent[],
  from: number,
): ProjectionState => {
  // The stream of the run being folded, its session and the facts the state holds for it.
  let stream: RecordedEvent['streamName'] | undefined;
  let session: SessionId | undefined;
  let facts: SessionFacts | undefined;
  let index = from;
  while (index < events.length) {
    const event = events[index] as RecordedEvent;
    index += 1;
    if (event.streamName !== stream) {
      stream = event.streamName;
      session = sessionIdOfStream(stream);
      facts = session === undefined ? undefined : state.sessions.get(session);
    }
    if (session === undefined) {
      // A header's fold may set its session's facts anew: the next session event, of another stream, looks them up again.
      evolveProjection(state, event);
      continue;
    }
    facts = evolveSessionEvent(state, session, event, facts);
    if (!continuesRun(event, stream)) continue;
    let last: RecordedEvent | undefined;
    while (index < events.length && continuesRun(events[index] as RecordedEvent, stream)) {
      last = events[index];
      index += 1;
    }
    if (last !== undefined) foldRunTail(facts, last);
  }
  return state;
};
