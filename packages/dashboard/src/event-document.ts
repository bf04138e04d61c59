import type { JsonValue, SessionId } from '@teamlog/events';
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

/** The event at a session's seq (seq -1: its header), or undefined when the store has none there. */
export const readSessionEvent = async (
  store: EventStore,
  sessionId: SessionId,
  seq: number,
): Promise<EventDocument | undefined> => {
  const stream = seq === -1 ? sessionHeaderStream(sessionId) : sessionStream(sessionId);
  const revision = BigInt(Math.max(seq, 0));
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
