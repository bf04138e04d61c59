import type { EventId, JsonValue } from '@teamlog/events';
import type { RecordedEvent, StreamName } from '@teamlog/store';
import { positionOf } from './global-position-mapping';

/** The columns every read selects: big numbers as text (turned into bigint here), JSON parsed by the driver. */
export const eventColumns = (alias: string): string =>
  [
    `${alias}.transaction_id::text AS transaction_id`,
    `${alias}.position::text AS position`,
    `${alias}.stream_name`,
    `${alias}.revision::text AS revision`,
    `${alias}.event_id`,
    `${alias}.type`,
    `${alias}.data`,
    `${alias}.metadata`,
    `${alias}.recorded_at`,
  ].join(', ');

export interface EventRow {
  readonly transaction_id: string;
  readonly position: string;
  readonly stream_name: string;
  readonly revision: string;
  readonly event_id: string;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: JsonValue | null;
  readonly recorded_at: Date;
}

export const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  streamName: row.stream_name as StreamName,
  revision: BigInt(row.revision),
  position: positionOf(row.transaction_id, row.position),
  id: row.event_id as EventId,
  type: row.type,
  data: row.data,
  metadata: row.metadata === null ? undefined : row.metadata,
  recordedAt: row.recorded_at,
});
