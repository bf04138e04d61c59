import fc from 'fast-check';
import { MessageIdIndex, messageIdHash } from '@teamlog/projections';

type Operation =
  | { readonly kind: 'add'; readonly id: string }
  | { readonly kind: 'delete'; readonly id: string }
  | { readonly kind: 'get'; readonly id: string };

/** The index over rows as a mailbox keeps them (a row per id added, in order), beside a Map of the same. */
const run = (operations: readonly Operation[], hashOf?: (id: string) => number): void => {
  const rows: string[] = [];
  const index = new MessageIdIndex((row) => rows[row] as string, hashOf);
  const map = new Map<string, number>();
  for (const op of operations) {
    switch (op.kind) {
      case 'add': {
        const fresh = !map.has(op.id);
        expect(index.add(op.id, rows.length)).toBe(fresh);
        if (fresh) {
          map.set(op.id, rows.length);
          rows.push(op.id);
        }
        break;
      }
      case 'delete':
        expect(index.delete(op.id)).toBe(map.delete(op.id));
        break;
      case 'get':
        expect(index.get(op.id)).toBe(map.get(op.id) ?? -1);
        break;
      default: {
        const unreachable: never = op;
        throw new Error(`unknown operation ${String(unreachable)}`);
      }
    }
    expect(index.size).toBe(map.size);
  }
  for (const [id, row] of map) expect(index.get(id)).toBe(row);
};

const operations = (ids: fc.Arbitrary<string>): fc.Arbitrary<Operation[]> =>
  fc.array(
    fc.oneof(
      { weight: 4, arbitrary: ids.map((id) => ({ kind: 'add' as const, id })) },
      { weight: 1, arbitrary: ids.map((id) => ({ kind: 'delete' as const, id })) },
      { weight: 2, arbitrary: ids.map((id) => ({ kind: 'get' as const, id })) },
    ),
    { maxLength: 3000 },
  );

describe('the index of a legacy mailbox message ids', () => {
  it('answers as a Map of ids to rows would, whatever was added, deleted and asked, across its growth', () => {
    fc.assert(
      fc.property(operations(fc.nat(2500).map((n) => `team-message-${n}`)), (ops) => run(ops)),
      { numRuns: 40, seed: 20261205 },
    );
  });

  it('answers the same when every id hashes alike (crafted input), keeping them in a Map past a long probe', () => {
    fc.assert(
      fc.property(operations(fc.nat(300).map((n) => `m-${n}`)), (ops) => run(ops, () => 7)),
      { numRuns: 20, seed: 20261206 },
    );
  });

  it('refuses an id added twice and keeps its first row', () => {
    const rows = ['m-1', 'm-2'];
    const index = new MessageIdIndex((row) => rows[row] as string);
    expect(index.add('m-1', 0)).toBe(true);
    expect(index.add('m-2', 1)).toBe(true);
    expect(index.add('m-1', 2)).toBe(false);
    expect(index.get('m-1')).toBe(0);
    expect(index.size).toBe(2);
  });

  it('hashes an id from every code unit', () => {
    expect(messageIdHash('team-message-00000001')).not.toBe(messageIdHash('team-message-00000002'));
    expect(messageIdHash('a-team-message')).not.toBe(messageIdHash('b-team-message'));
    expect(messageIdHash('m-1')).toBe(messageIdHash('m-1'));
  });
});
