import { type Either, isLeft, left, right } from 'fp-ts/Either';
import {
  type DecodeError,
  type EventId,
  type JsonValue,
  StoredEventMetadata,
  decodeWith,
  isPackedRowType,
  isTeamlogEventType,
} from '@teamlog/events';
import { type EventToAppend, type RecordedEvent, SelfRecordedEvent } from '@teamlog/store';
import { dataMemberText } from './data-member-span';
import { sessionEventIds } from './event-ids';
import { storedEventMetadataOf } from './stored-event-metadata';
import type { LogicalEvent } from './logical-event';

/**
 * An event as a store that keeps no payload takes it (the heads-only store, which reads the id of
 * a stream's ends only, and whose views read the metadata once): its id and metadata are made
 * when read, not for every event. The same values `eventToAppendEncoder` gives, each time they are read.
 */
class EventToAppendOnRead implements EventToAppend {
  readonly type: string;
  readonly data: JsonValue;
  readonly catalog: true | undefined;

  constructor(
    private readonly event: LogicalEvent,
    private readonly idOf: (seq: number) => EventId,
    private readonly normalised: boolean,
    catalogChecked: boolean,
  ) {
    this.type = event.type;
    this.data = event.data;
    this.catalog = catalogChecked ? true : undefined;
  }

  get id(): EventId {
    return this.idOf(this.event.seq);
  }

  get metadata(): JsonValue {
    return storedEventMetadataOf(this.event, this.normalised) as unknown as JsonValue;
  }
}

/**
 * The events of one session stream as the store keeps them: `type` and `data` verbatim, the
 * envelope in `StoredEventMetadata`, revision = seq, id deterministic (the stream's id hash is
 * computed once, here). Given the bytes of the line that held the event, `dataText` is the line's
 * own text of its `data` member, which a store that keeps JSON text stores as it is
 * (docs/rules.md#stored-data-bytes); a packed row's members share a line and have none.
 */
export const eventToAppendEncoder = (
  streamKey: string,
  normalised: boolean,
  /** False for a store that ignores `dataText` (`EventStore.ignoresDataText`): the text is not cut out. */
  withDataText = true,
): ((event: LogicalEvent, lineBytes?: Uint8Array, catalogChecked?: boolean) => EventToAppend) => {
  const idOf = sessionEventIds(streamKey);
  return (event, lineBytes, catalogChecked) => {
    // Already the event to append, with this stream's ids (the reader was given them: `packedMemberIds`).
    if (!withDataText && event instanceof SelfRecordedEvent) return event;
    // No text to cut: an event whose id and metadata are made if read.
    if (!withDataText) return new EventToAppendOnRead(event, idOf, normalised, catalogChecked === true);
    const dataText = lineBytes === undefined || event.packed !== undefined ? undefined : dataMemberText(lineBytes);
    const encoded: { -readonly [K in keyof EventToAppend]: EventToAppend[K] } = {
      id: idOf(event.seq),
      type: event.type,
      data: event.data,
      metadata: storedEventMetadataOf(event, normalised) as unknown as JsonValue,
    };
    if (dataText !== undefined) encoded.dataText = dataText;
    // The reader's verdict on the payload, handed on so the views need not check it again.
    if (catalogChecked === true) encoded.catalog = true;
    return encoded;
  };
};

/** One event of a session log as the store keeps it (see `eventToAppendEncoder`). */
export const toEventToAppend = (streamKey: string, event: LogicalEvent, normalised: boolean): EventToAppend =>
  eventToAppendEncoder(streamKey, normalised)(event);

/**
 * A stored session event back to a logical event for export. teamlog's own `teamlog/*` events
 * are written `ignorable` (a reader of the harness's format may skip them: docs/rules.md#teamlog-events-ignorable); their time falls back to when they
 * were recorded if their metadata carries none. Its seq is its revision less `base`, the revision
 * of its generation's seq 0 (after a supersession record: docs/rules.md#import-superseded).
 */
export const fromRecordedEvent = (recorded: RecordedEvent, base = 0): Either<DecodeError, LogicalEvent> => {
  const seq = Number(recorded.revision) - base;
  const teamlog = isTeamlogEventType(recorded.type);
  const decoded = decodeWith(StoredEventMetadata, 'metadata')(recorded.metadata ?? {});
  if (isLeft(decoded)) {
    if (!teamlog) return left(decoded.left);
    return right({
      type: recorded.type,
      seq,
      time: recorded.recordedAt.getTime(),
      data: recorded.data,
      ignorable: true,
    });
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
