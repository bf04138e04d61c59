import type { JsonValue, SessionId } from '@teamlog/events';
import type { TeamlogViews } from '@teamlog/projections';
import {
  type EventStore,
  type RecordedEvent,
  formatPosition,
  sessionHeaderStream,
  sessionStream,
  isStoreError,
} from '@teamlog/store';

/** One stored event as the API shows it (bigints as text). */
export interface EventDocument {
  readonly sessionId: SessionId;
  /** The session log's seq; -1 for the session's header. */
  readonly seq: number;
  readonly streamName: string;
  readonly revision: string;
  readonly position: string;
  readonly id: string;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: JsonValue | null;
  readonly recordedAt: string;
}

/** Where the API serves the event a finding or failure points at. */
export const eventPath = (sessionId: SessionId, seq: number): string =>
  `/api/event?${new URLSearchParams({ sessionId, seq: String(seq) }).toString()}`;

const documentOf = (sessionId: SessionId, seq: number, event: RecordedEvent): EventDocument => ({
  sessionId,
  seq,
  streamName: event.streamName,
  revision: event.revision.toString(),
  position: formatPosition(event.position),
  id: event.id,
  type: event.type,
  data: event.data,
  metadata: event.metadata ?? null,
  recordedAt: event.recordedAt.toISOString(),
});

/**
 * The revision a session's seq 0 is stored at: 0, or for a session a later generation superseded,
 * the revision after its last `teamlog/import/superseded`, as the views know it
 * (docs/rules.md#import-superseded). The views' seqs count from there.
 */
export type SeqBase = (sessionId: SessionId) => number;

export const seqBaseOf =
  (views: TeamlogViews): SeqBase =>
  (sessionId) =>
    views.session(sessionId)?.superseded?.base ?? 0;

/** The event at a session's seq (seq -1: its header), or undefined when the store has none there. */
export const readSessionEvent = async (
  store: EventStore,
  sessionId: SessionId,
  seq: number,
  base = 0,
): Promise<EventDocument | undefined> => {
  const stream = seq === -1 ? sessionHeaderStream(sessionId) : sessionStream(sessionId);
  const revision = BigInt(seq === -1 ? 0 : base + Math.max(seq, 0));
  try {
    for await (const event of store.readStream(stream, { from: revision, maxCount: 1 })) {
      return event.revision === revision ? documentOf(sessionId, seq, event) : undefined;
    }
  } catch (error) {
    if (isStoreError(error, 'StreamNotFound')) return undefined;
    throw error;
  }
  return undefined;
};
