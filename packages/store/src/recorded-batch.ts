import type { EventToAppend, RecordedEvent } from './event-store';
import type { StreamName } from './stream-name';

/** The next global position of a store that keeps `$all` in memory: advanced as batches are recorded. */
export interface PositionCursor {
  nextCommit: bigint;
}

/**
 * The events of one batch as a memory store records them, continuing a stream at revision `start`,
 * and the cursor moved past them. Positions step unevenly, so nothing may assume dense positions.
 * `keep` is what the store holds of a payload (the value itself, or a frozen one). `verdicts`: the
 * recorded events carry the writer's `catalog` verdict (only for a store that hands them straight
 * to its commit participants and keeps no payload, see `RecordedEvent.catalog`).
 */
export const recordBatch = (
  cursor: PositionCursor,
  stream: StreamName,
  start: number,
  events: readonly EventToAppend[],
  recordedAt: Date,
  keep: <T>(value: T) => T = (value) => value,
  verdicts = false,
): RecordedEvent[] => {
  const recorded = new Array<RecordedEvent>(events.length);
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index] as EventToAppend;
    const position = { commit: cursor.nextCommit, prepare: cursor.nextCommit };
    cursor.nextCommit += BigInt(64 + event.type.length + (index % 7) * 8);
    recorded[index] = verdicts
      ? {
          streamName: stream,
          revision: BigInt(start + index),
          position,
          id: event.id,
          type: event.type,
          data: event.data,
          metadata: event.metadata,
          recordedAt,
          catalog: event.catalog === true,
        }
      : {
          streamName: stream,
          revision: BigInt(start + index),
          position,
          id: event.id,
          type: event.type,
          data: keep(event.data),
          metadata: keep(event.metadata),
          recordedAt,
        };
  }
  return recorded;
};
