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
  | { readonly kind: 'queue'; readonly id: string; readonly entry: LegacyMessageEntry }
  | { readonly kind: 'delete'; readonly id: string };

const ids = fc.constantFrom('m-1', 'm-2', 'm-3', 'm-4', 'm-5');
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc
    .record({ id: ids, seq: fc.nat(50), delivered: fc.option(fc.nat(50), { nil: undefined }), v1: fc.boolean() })
    .map(({ id, seq, delivered, v1 }) => ({ kind: 'set' as const, id, entry: entry(id, seq, delivered, v1) })),
  fc
    .record({ id: ids, seq: fc.nat(50), v1: fc.boolean() })
    .map(({ id, seq, v1 }) => ({ kind: 'queue' as const, id, entry: entry(id, seq, undefined, v1) })),
  ids.map((id) => ({ kind: 'delete' as const, id })),
);

/** What the Team fold's queue means on a Map of entries: a message queued already is refused, and nothing changes. */
const queueInto = (map: Map<MessageId, LegacyMessageEntry>, id: MessageId, queued: LegacyMessageEntry): boolean => {
  if (map.has(id)) return false;
  map.set(id, queued);
  return true;
};

const apply = (map: Map<MessageId, LegacyMessageEntry>, op: Operation): unknown => {
  const id = op.id as MessageId;
  switch (op.kind) {
    case 'set':
      return map.set(id, op.entry).size;
    case 'queue': {
      const { message, sourceVersion, queuedSeq } = op.entry;
      return map instanceof LegacyMessageColumns
        ? map.queue(message, message.senderId, message.targetId, sourceVersion, queuedSeq)
        : queueInto(map, id, op.entry);
    }
    case 'delete':
      return map.delete(id);
    default: {
      const unreachable: never = op;
      return unreachable;
    }
  }
};

describe('a legacy mailbox kept as columns', () => {
  it('reads as a Map of the same entries would, whatever was set, queued and deleted, in the same order', () => {
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

  it('refuses a message queued twice and keeps the first, at its own row', () => {
    const columns = new LegacyMessageColumns();
    const first = entry('m-1', 4, undefined, true);
    const second = entry('m-2', 5, undefined, true);
    const again = entry('m-1', 6, undefined, false);
    for (const { message, sourceVersion, queuedSeq } of [first, second])
      expect(columns.queue(message, message.senderId, message.targetId, sourceVersion, queuedSeq)).toBe(true);
    expect(columns.queue(again.message, again.message.senderId, again.message.targetId, 2, 6)).toBe(false);
    expect(columns.indexOf('m-1' as MessageId)).toBe(0);
    expect(columns.indexOf('m-2' as MessageId)).toBe(1);
    expect([...columns.values()]).toEqual([first, second]);
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
