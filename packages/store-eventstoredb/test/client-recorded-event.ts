import type { EventData } from '@eventstore/db-client';
import type { ClientRecordedEvent } from '@teamlog/store-eventstoredb';

/**
 * What the client hands back for event data the server stored: JSON parsed from its text,
 * binary data as bytes, metadata parsed as JSON (or bytes when it is not JSON).
 */
export const recordedFromEventData = (
  event: EventData,
  where: { streamId: string; revision: bigint; commit: bigint; prepare?: bigint; created?: Date },
): ClientRecordedEvent => {
  const metadata =
    event.metadata === undefined
      ? undefined
      : event.metadata instanceof Uint8Array
        ? event.metadata
        : JSON.parse(JSON.stringify(event.metadata));
  return {
    streamId: where.streamId,
    id: event.id,
    revision: where.revision,
    type: event.type,
    isJson: event.contentType === 'application/json',
    created: where.created ?? new Date(0),
    data: event.contentType === 'application/json' ? JSON.parse(JSON.stringify(event.data)) : event.data,
    metadata,
    position: { commit: where.commit, prepare: where.prepare ?? where.commit },
  };
};
