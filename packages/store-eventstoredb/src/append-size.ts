import type { EventData } from '@eventstore/db-client';
import type { StreamName } from '@teamlog/store';
import { appendTooLarge } from './eventstoredb-errors';

/** The server's default MaxAppendSize: 1 MiB per append request. */
export const defaultMaxAppendBytes = 1_048_576;

const byteLength = (value: unknown): number => {
  if (value === undefined) return 0;
  if (value instanceof Uint8Array) return value.byteLength;
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
};

/**
 * The size the server counts for one event against MaxAppendSize, as its `Event.SizeOnDisk`
 * does: data bytes + metadata bytes + two bytes per character of the event type. (Servers before
 * 21.x counted data only, so this never under-counts.)
 */
export const eventSizeOnDisk = (event: EventData): number =>
  byteLength(event.data) + byteLength(event.metadata) + event.type.length * 2;

export const appendSizeOnDisk = (events: readonly EventData[]): number =>
  events.reduce((sum, event) => sum + eventSizeOnDisk(event), 0);

/** Refuse before sending: the server would refuse the whole append anyway, with a vaguer error. */
export const assertAppendSize = (stream: StreamName, events: readonly EventData[], limitBytes: number): void => {
  const bytes = appendSizeOnDisk(events);
  if (bytes > limitBytes) throw appendTooLarge(stream, bytes, limitBytes, events.length);
};
