import { Either, isLeft, left, right } from 'fp-ts/Either';
import {
  DecodeError, JsonValue, StoredEventMetadata, decodeWith, isPackedRowType, isTeamlogEventType,
} from '@teamlog/events';
import { EventToAppend, RecordedEvent } from '@teamlog/store';
import { sessionEventId } from './event-ids';
import { LogicalEvent } from './logical-event';

/**
 * An event of a session log as the store keeps it: `type` and `data` verbatim, the envelope in
 * `StoredEventMetadata`, revision = seq, id deterministic.
 */
export const toEventToAppend = (streamKey: string, event: LogicalEvent, normalised: boolean): EventToAppend => {
  const metadata: StoredEventMetadata = {
    time: event.time,
    ...(event.ignorable === undefined ? {} : { ignorable: event.ignorable }),
    ...(event.surfaceOp === undefined ? {} : { surfaceOp: event.surfaceOp }),
    ...(event.sourceEventSeqs === undefined ? {} : { sourceEventSeqs: event.sourceEventSeqs }),
    ...(event.extra === undefined ? {} : { extra: event.extra }),
    ...(normalised ? { normalised: true as const } : {}),
    ...(event.packed === undefined ? {} : { packed: event.packed }),
  };
  return { id: sessionEventId(streamKey, event.seq), type: event.type, data: event.data, metadata: metadata as unknown as JsonValue };
};

/**
 * A stored session event back to a logical event for export. teamlog's own `teamlog/*` events
 * are written `ignorable` (a reference reader may skip them); their time falls back to when they
 * were recorded if their metadata carries none.
 */
export const fromRecordedEvent = (recorded: RecordedEvent): Either<DecodeError, LogicalEvent> => {
  const seq = Number(recorded.revision);
  const teamlog = isTeamlogEventType(recorded.type);
  const decoded = decodeWith(StoredEventMetadata, 'metadata')(recorded.metadata ?? {});
  if (isLeft(decoded)) {
    if (!teamlog) return left(decoded.left);
    return right({ type: recorded.type, seq, time: recorded.recordedAt.getTime(), data: recorded.data, ignorable: true });
  }
  const metadata = decoded.right;
  const packed = metadata.packed !== undefined && isPackedRowType(metadata.packed) ? metadata.packed : undefined;
  return right({
    type: recorded.type,
    seq,
    time: metadata.time,
    data: recorded.data,
    ...(metadata.ignorable === true || teamlog ? { ignorable: true as const } : {}),
    ...(metadata.surfaceOp === undefined ? {} : { surfaceOp: metadata.surfaceOp }),
    ...(metadata.sourceEventSeqs === undefined ? {} : { sourceEventSeqs: metadata.sourceEventSeqs }),
    ...(metadata.extra === undefined ? {} : { extra: metadata.extra }),
    ...(packed === undefined ? {} : { packed }),
  });
};
