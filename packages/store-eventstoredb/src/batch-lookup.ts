import type { EventId } from '@teamlog/events';
import { type RecordedEvent, sameEventId } from '@teamlog/store';

/**
 * Whether a batch is already in a stream, judged from a slice of the stream read back after an
 * append with an unknown outcome (or one the server refused). The slice holds consecutive
 * revisions in ascending order and reaches the end of the stream, or covers the whole batch.
 */
export type BatchLookup =
  /** None of the batch's ids is in the slice. */
  | { readonly kind: 'absent' }
  /** The whole batch is stored, in order, at consecutive revisions. */
  | { readonly kind: 'stored'; readonly first: RecordedEvent; readonly last: RecordedEvent }
  /** Some ids are stored but not as this batch: a retry that is not the original batch. */
  | { readonly kind: 'conflict'; readonly eventId: EventId; readonly detail: string }
  /** Ids were found but the slice does not reach far enough back to judge. */
  | { readonly kind: 'undecided'; readonly detail: string };

export const lookupBatch = (slice: readonly RecordedEvent[], ids: readonly EventId[]): BatchLookup => {
  const indexOf = (id: EventId) => slice.findIndex((event) => sameEventId(event.id, id));
  const firstId = ids[0];
  if (firstId === undefined) return { kind: 'absent' };
  const start = indexOf(firstId);
  if (start < 0) {
    const offset = ids.findIndex((id) => indexOf(id) >= 0);
    if (offset < 0) return { kind: 'absent' };
    const id = ids[offset] as EventId;
    const startsBeforeSlice = indexOf(id) - offset < 0 && (slice[0]?.revision ?? 0n) > 0n;
    if (startsBeforeSlice)
      return {
        kind: 'undecided',
        detail: `event ${id} is stored but the batch may start before the revisions read back`,
      };
    return {
      kind: 'conflict',
      eventId: id,
      detail: 'part of this batch is already stored; a retry must repeat the original batch exactly',
    };
  }
  for (let offset = 0; offset < ids.length; offset += 1) {
    const event = slice[start + offset];
    const id = ids[offset] as EventId;
    // Slices end where the stream ends, so a batch cut short is only partly stored.
    if (event === undefined)
      return {
        kind: 'conflict',
        eventId: id,
        detail: 'only part of this batch is stored; a retry must repeat the original batch exactly',
      };
    if (!sameEventId(event.id, id)) {
      return { kind: 'conflict', eventId: id, detail: 'a retry must repeat the original batch in its original order' };
    }
  }
  return { kind: 'stored', first: slice[start] as RecordedEvent, last: slice[start + ids.length - 1] as RecordedEvent };
};
