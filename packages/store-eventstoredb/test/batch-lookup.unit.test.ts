import type { EventId } from '@teamlog/events';
import { type RecordedEvent, sameEventId, streamName } from '@teamlog/store';
import { lookupBatch } from '@teamlog/store-eventstoredb';

const idAt = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}` as EventId;
const slice = (ids: readonly EventId[], firstRevision = 0n): RecordedEvent[] =>
  ids.map((id, offset) => ({
    streamName: streamName('s'),
    revision: firstRevision + BigInt(offset),
    position: { commit: 100n * (firstRevision + BigInt(offset)), prepare: 100n * (firstRevision + BigInt(offset)) },
    id,
    type: 't',
    data: {},
    metadata: undefined,
    recordedAt: new Date(0),
  }));

describe('looking a batch up in a stream read back', () => {
  it('finds a batch stored whole and in order, with its first and last event', () => {
    const found = lookupBatch(slice([idAt(1), idAt(2), idAt(3), idAt(4)], 10n), [idAt(2), idAt(3)]);
    expect(found.kind).toBe('stored');
    if (found.kind !== 'stored') return;
    expect(found.first.revision).toBe(11n);
    expect(found.last.revision).toBe(12n);
  });

  it('reports absent when no id of the batch is there', () => {
    expect(lookupBatch(slice([idAt(1)]), [idAt(5), idAt(6)])).toEqual({ kind: 'absent' });
    expect(lookupBatch([], [idAt(5)])).toEqual({ kind: 'absent' });
  });

  it('reports a conflict when only the start of the batch is stored', () => {
    const found = lookupBatch(slice([idAt(1), idAt(2), idAt(3)]), [idAt(2), idAt(9)]);
    expect(found).toMatchObject({ kind: 'conflict', eventId: idAt(9) });
  });

  it('reports a conflict when a later id is stored but the first is not', () => {
    expect(lookupBatch(slice([idAt(1), idAt(2)]), [idAt(9), idAt(1)])).toMatchObject({
      kind: 'conflict',
      eventId: idAt(1),
    });
  });

  it('cannot decide when the batch may begin before the revisions read back', () => {
    expect(lookupBatch(slice([idAt(2), idAt(3)], 5n), [idAt(1), idAt(2)]).kind).toBe('undecided');
  });

  it('reports a conflict when the stream ends inside the batch', () => {
    expect(lookupBatch(slice([idAt(1)]), [idAt(1), idAt(2)])).toMatchObject({ kind: 'conflict', eventId: idAt(2) });
  });

  it('compares ids without regard to case, as the server returns them lower-case', () => {
    expect(sameEventId('ABCDEF00-0000-4000-8000-000000000001', 'abcdef00-0000-4000-8000-000000000001')).toBe(true);
    const upper = idAt(10).toUpperCase() as EventId;
    expect(lookupBatch(slice([idAt(10)]), [upper]).kind).toBe('stored');
  });
});
