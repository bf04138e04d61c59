import { binaryEvent, type EventData, jsonEvent, type JSONType } from '@eventstore/db-client';
import type { JsonObject, JsonValue } from '@teamlog/events';
import type { EventToAppend } from '@teamlog/store';
import { encodeMetadata } from './event-metadata-mapping';

const isClientJson = (data: JsonValue): data is JsonValue & JSONType =>
  typeof data === 'string' || (typeof data === 'object' && data !== null);

/**
 * The client's event data for an event to append. The writer's id passes through, so a retried
 * append carries the same ids and the server can recognise it. Objects, arrays and strings are
 * JSON events; a bare number, boolean or null (which the client's JSON path cannot carry) is
 * stored as its JSON text in a binary event and parsed back on read.
 */
export const toEventData = (event: EventToAppend): EventData => clientEvent(event, encodeMetadata(event.metadata));

/** The client's event for `event` with the metadata object to store (already encoded). */
export const clientEvent = (event: EventToAppend, metadata: JsonObject | undefined): EventData => {
  const { id, type, data } = event;
  if (isClientJson(data)) return jsonEvent({ id, type, data, metadata });
  return binaryEvent({ id, type, data: Buffer.from(JSON.stringify(data), 'utf8'), metadata });
};
