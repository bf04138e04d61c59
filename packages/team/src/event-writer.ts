import { IdSource, JsonObject, SessionId, StoredEventMetadata, TeamId, WritableEvent } from '@teamlog/events';
import { AppendResult, EventStore, EventToAppend, ExpectedRevision, StreamName } from '@teamlog/store';
import { assertWritable } from './writable-event-guard';

export interface WriteContext {
  readonly ids: IdSource;
  readonly clock: () => Date;
  /** The session on whose behalf the events are written (the sender, for an acceptance). */
  readonly writer?: SessionId;
  readonly teamId?: TeamId;
}

/** Surface events produce model-visible messages and carry `surfaceOp` (docs/rules.md#surface-events). */
const surfaceTypes: ReadonlySet<string> = new Set(['user/message']);

const metadataFor = (event: WritableEvent, context: WriteContext, time: number): StoredEventMetadata & JsonObject => ({
  time,
  ...(surfaceTypes.has(event.type) ? { surfaceOp: 'append' as const } : {}),
  ...(context.writer === undefined ? {} : { writerSessionId: context.writer }),
  ...(context.teamId === undefined ? {} : { correlationId: context.teamId }),
});

/** The only way teamlog appends: writable catalog events, checked, with stored metadata. */
export const appendWritable = async (
  store: EventStore,
  stream: StreamName,
  events: readonly WritableEvent[],
  expectedRevision: ExpectedRevision,
  context: WriteContext,
): Promise<AppendResult> => {
  const time = context.clock().getTime();
  const toAppend: EventToAppend[] = events.map((event) => ({
    id: context.ids.eventId(),
    type: event.type,
    data: assertWritable(event),
    metadata: metadataFor(event, context, time),
  }));
  return store.appendToStream(stream, toAppend, { expectedRevision });
};
