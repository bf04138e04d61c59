import fc from 'fast-check';
import type { LegacyMessageEntry } from '@teamlog/domain';
import type { MessageId, SessionId } from '@teamlog/events';
import { LegacyMessageColumns } from '@teamlog/projections';

const entry = (id: string, seq: number, delivered: number | undefined, v1: boolean): LegacyMessageEntry => ({
  message: {
    id: id as MessageId,
    senderId: `sender-${seq % 3}` as SessionId,
    senderName: `name-${seq % 3}`,
    targetId: `target-${seq % 5}` as SessionId,
    content: [],
    ...(v1 ? { delivery: seq % 2 === 0 ? ('quiet' as const) : ('wakeup' as const) } : {}),
  },
  sourceVersion: v1 ? 1 : 2,
  queuedSeq: seq,
  deliveredSeq: delivered,
});

type Operation =
  | { readonly kind: 'set'; readonly id: string; readonly entry: LegacyMessageEntry }
  | { readonly kind: 'delete'; readonly id: string };

const ids = fc.constantFrom('m-1', 'm-2', 'm-3', 'm-4', 'm-5');
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc
    .record({ id: ids, seq: fc.nat(50), delivered: fc.option(fc.nat(50), { nil: undefined }), v1: fc.boolean() })
    .map(({ id, seq, delivered, v1 }) => ({ kind: 'set' as const, id, entry: entry(id, seq, delivered, v1) })),
  ids.map((id) => ({ kind: 'delete' as const, id })),
);

const apply = (map: Map<MessageId, LegacyMessageEntry>, op: Operation): unknown =>
  op.kind === 'set' ? map.set(op.id as MessageId, op.entry).size : map.delete(op.id as MessageId);

describe('a legacy mailbox kept as columns', () => {
  it('reads as a Map of the same entries would, whatever was set and deleted, in the same order', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        const columns = new LegacyMessageColumns();
        const map = new Map<MessageId, LegacyMessageEntry>();
        for (const op of operations) expect(apply(columns, op)).toEqual(apply(map, op));
        expect([...columns.entries()]).toEqual([...map.entries()]);
        expect(columns.size).toBe(map.size);
        for (const id of ['m-1', 'm-2', 'm-3', 'm-4', 'm-5'] as MessageId[]) {
          expect(columns.has(id)).toBe(map.has(id));
          expect(columns.get(id)).toEqual(map.get(id));
        }
      }),
      { numRuns: 300, seed: 20261205 },
    );
  });

  it('keeps what the Team fold queues and delivers without an entry, and reads it back as one', () => {
    const columns = new LegacyMessageColumns();
    const queued = entry('m-1', 4, undefined, true);
    columns.queue(queued.message, queued.message.senderId, queued.message.targetId, 1, 4);
    expect(columns.indexOf('m-1' as MessageId)).toBe(0);
    expect(columns.indexOf('m-2' as MessageId)).toBe(-1);
    expect(columns.targetAt(0)).toBe('target-4');
    expect(columns.isDeliveredAt(0)).toBe(false);
    columns.deliverAt(0, 9);
    expect(columns.isDeliveredAt(0)).toBe(true);
    expect(columns.get('m-1' as MessageId)).toEqual({ ...queued, deliveredSeq: 9 });
  });
});
