import type { EventId } from '@teamlog/events';
import type { EncodedEvent } from '../src/event-rows';
import { GroupRows } from '../src/group-rows';

const event = (n: number): EncodedEvent => ({
  id: `id-${n}` as EventId,
  type: 'test/event',
  data: `{"n":${n}}`,
  metadata: null,
});

describe('a group commit’s parameters', () => {
  it('given rows of a chained store, when bound, then they hold every row’s values in column order, the digest last', () => {
    const rows = new GroupRows(true);
    rows.push('s-1', 0n, event(1), 7, 'd1');
    rows.push('s-2', 3n, event(2), 7, 'd2');
    expect(rows.rows).toBe(2);
    expect(rows.bound()).toEqual([
      ...['s-1', 0n, 'id-1', 'test/event', '{"n":1}', null, 7, 'd1'],
      ...['s-2', 3n, 'id-2', 'test/event', '{"n":2}', null, 7, 'd2'],
    ]);
  });

  it('given groups of the same size, when each is bound, then they bind one array, emptied between them', () => {
    const rows = new GroupRows(false);
    rows.push('s-1', 0n, event(1), 7);
    const first = rows.bound();
    rows.clear();
    expect(first).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(rows.rows).toBe(0);
    rows.push('s-1', 1n, event(2), 8);
    expect(rows.bound()).toBe(first);
    expect(first).toEqual(['s-1', 1n, 'id-2', 'test/event', '{"n":2}', null, 8]);
  });

  it('given a smaller group after a larger one, when bound, then it holds only its own rows', () => {
    const rows = new GroupRows(false);
    rows.push('s-1', 0n, event(1), 7);
    rows.push('s-2', 0n, event(2), 7);
    expect(rows.bound()).toHaveLength(14);
    rows.clear();
    rows.push('s-3', 0n, event(3), 9);
    expect(rows.bound()).toEqual(['s-3', 0n, 'id-3', 'test/event', '{"n":3}', null, 9]);
  });
});
