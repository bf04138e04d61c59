import type { EventId } from '@teamlog/events';
import type { EventStore } from './event-store';
import type { StreamMismatch } from './migration-errors';
import { sameEventId } from './same-event-id';
import type { StreamName } from './stream-name';

/** What the copy saw of one source stream. */
export interface SourceStreamSummary {
  readonly streamName: StreamName;
  readonly events: number;
  readonly lastRevision: bigint;
  readonly lastEventId: EventId;
}

const lastEventOf = async (store: EventStore, stream: StreamName) => {
  for await (const event of store.readStream(stream, { direction: 'backwards', maxCount: 1 })) return event;
  return undefined;
};

/**
 * Compare the target with what was read from the source: every stream present, dense from 0,
 * with the same last revision and the same last event id. Returns the mismatches (none is good).
 */
export const verifyMigration = async (
  target: EventStore,
  streams: Iterable<SourceStreamSummary>,
): Promise<StreamMismatch[]> => {
  const mismatches: StreamMismatch[] = [];
  for (const source of streams) {
    if (BigInt(source.events) !== source.lastRevision + 1n) {
      mismatches.push({
        streamName: source.streamName,
        detail: `the source has ${source.events} events up to revision ${source.lastRevision}`,
      });
      continue;
    }
    const last = await target.streamRevision(source.streamName);
    if (last !== source.lastRevision) {
      mismatches.push({
        streamName: source.streamName,
        detail: `last revision ${last ?? 'none'} in the target, ${source.lastRevision} in the source`,
      });
      continue;
    }
    const event = await lastEventOf(target, source.streamName);
    if (event === undefined || !sameEventId(event.id, source.lastEventId)) {
      mismatches.push({
        streamName: source.streamName,
        detail: `last event ${event?.id ?? 'none'} in the target, ${source.lastEventId} in the source`,
      });
    }
  }
  return mismatches;
};
