import type { EventId } from '@teamlog/events';
import type { AppendResult, EventToAppend, ExpectedRevision } from './event-store';
import type { GlobalPosition } from './global-position';
import { duplicateEventId, invalidAppend, wrongExpectedVersion } from './store-errors';
import type { StreamName } from './stream-name';

/* The append rules every adapter shares, so they cannot drift apart. */

export interface StoredIdentity {
  readonly streamName: StreamName;
  readonly revision: bigint;
  readonly position: GlobalPosition;
}

export const assertValidBatch = (stream: StreamName, events: readonly EventToAppend[]): void => {
  // One event (a send) cannot repeat an id: no set to build.
  const seen = events.length > 1 ? new Set<string>() : undefined;
  for (const event of events) {
    if (seen?.has(event.id) === true)
      throw invalidAppend(`stream ${stream}: event id ${event.id} appears twice in one append`);
    seen?.add(event.id);
    if (event.type.length === 0) throw invalidAppend(`stream ${stream}: event ${event.id} has an empty type`);
  }
};

/** Whether an append's expected revision holds for the stream's last revision (undefined: no stream). */
export const meetsExpectedRevision = (expected: ExpectedRevision, last: bigint | undefined): boolean =>
  expected === 'any' ||
  (expected === 'no_stream' && last === undefined) ||
  (expected === 'stream_exists' && last !== undefined) ||
  (typeof expected === 'bigint' && last === expected);

export const assertExpectedRevision = (
  stream: StreamName,
  expected: ExpectedRevision,
  last: bigint | undefined,
): void => {
  if (!meetsExpectedRevision(expected, last))
    throw wrongExpectedVersion(stream, expected, last === undefined ? 'no_stream' : last);
};

/**
 * When any id of the batch is already stored, the append is a retry: it must repeat the original
 * batch (same stream, same order, consecutive revisions) and gets the original result back.
 * Returns undefined when no id is stored yet.
 */
export const resolveRetry = (
  stream: StreamName,
  events: readonly EventToAppend[],
  stored: ReadonlyMap<EventId, StoredIdentity>,
): AppendResult | undefined => {
  if (stored.size === 0) return undefined;
  const first = events[0] === undefined ? undefined : stored.get(events[0].id);
  let last: StoredIdentity | undefined;
  events.forEach((event, index) => {
    const identity = stored.get(event.id);
    if (identity === undefined || first === undefined) {
      throw duplicateEventId(
        event.id,
        stream,
        'part of this batch is already stored; a retry must repeat the original batch exactly',
      );
    }
    if (identity.streamName !== stream) {
      throw duplicateEventId(event.id, stream, `the id is already stored in stream ${identity.streamName}`);
    }
    if (identity.revision !== first.revision + BigInt(index)) {
      throw duplicateEventId(event.id, stream, 'a retry must repeat the original batch in its original order');
    }
    last = identity;
  });
  return last === undefined ? undefined : { nextExpectedRevision: last.revision, position: last.position };
};
