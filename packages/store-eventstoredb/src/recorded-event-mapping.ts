import { type Either, isLeft, left, right } from 'fp-ts/Either';
import type { Position } from '@eventstore/db-client';
import { EventId, JsonValue } from '@teamlog/events';
import { type GlobalPosition, type RecordedEvent, type StoreError, streamName } from '@teamlog/store';
import { decodeMetadata } from './event-metadata-mapping';
import { splitChainDigest } from './eventstoredb-event-chain';
import { unreadableEvent } from './eventstoredb-errors';
import { fromClientPosition } from './global-position-mapping';

/** The fields of the client's RecordedEvent this mapping reads. */
export interface ClientRecordedEvent {
  readonly streamId: string;
  readonly id: string;
  readonly revision: bigint;
  readonly type: string;
  readonly isJson: boolean;
  readonly created: Date;
  readonly data: unknown;
  readonly metadata: unknown;
  /** Present on `$all` reads, and on stream reads from servers newer than 22.6. */
  readonly position?: Position;
}

/** The fields of the client's ResolvedEvent (and AllStreamResolvedEvent) this mapping reads. */
export interface ClientResolvedEvent {
  readonly event?: ClientRecordedEvent;
}

const decodeData = (recorded: ClientRecordedEvent): Either<string, JsonValue> => {
  if (recorded.isJson) return JsonValue.is(recorded.data) ? right(recorded.data) : left('data is not a JSON value');
  if (!(recorded.data instanceof Uint8Array)) return left('binary data is missing');
  try {
    const parsed: unknown = JSON.parse(Buffer.from(recorded.data).toString('utf8'));
    return JsonValue.is(parsed) ? right(parsed) : left('binary data is not a JSON value');
  } catch {
    return left(`data is binary and not JSON text (${recorded.data.byteLength} bytes)`);
  }
};

const decodeStreamName = (recorded: ClientRecordedEvent) => {
  try {
    return right(streamName(recorded.streamId));
  } catch (error) {
    return left((error as Error).message);
  }
};

/** The port's RecordedEvent for an event the client read; fails on events teamlog cannot represent. */
export const toRecordedEvent = (recorded: ClientRecordedEvent): Either<StoreError, RecordedEvent> => {
  const fail = (detail: string) => left(unreadableEvent(recorded.streamId, recorded.revision, recorded.id, detail));
  const name = decodeStreamName(recorded);
  if (isLeft(name)) return fail(name.left);
  const id = EventId.decode(recorded.id);
  if (isLeft(id)) return fail(`event id ${recorded.id} is not a uuid`);
  if (recorded.position === undefined) {
    return fail(
      'the server returned no $all position for the event (stream reads carry positions from EventStoreDB 22.10 on)',
    );
  }
  const position: GlobalPosition = fromClientPosition(recorded.position);
  const data = decodeData(recorded);
  if (isLeft(data)) return fail(data.left);
  const metadata = decodeMetadata(splitChainDigest(recorded.metadata).metadata);
  if (isLeft(metadata)) return fail(metadata.left);
  return right({
    streamName: name.right,
    revision: recorded.revision,
    position,
    id: id.right,
    type: recorded.type,
    data: data.right,
    metadata: metadata.right,
    recordedAt: recorded.created,
  });
};

export const fromResolvedEvent = (resolved: ClientResolvedEvent): Either<StoreError, RecordedEvent> =>
  resolved.event === undefined
    ? left(unreadableEvent('(unknown)', undefined, undefined, 'the server returned a resolved event without an event'))
    : toRecordedEvent(resolved.event);
