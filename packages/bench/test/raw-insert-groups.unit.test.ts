import { groupsOf } from '../src/raw-insert-baseline';

describe('groupsOf (the transactions of the grouped raw-insert baseline)', () => {
  it('splits rows into consecutive groups of the given size, the last one shorter', () => {
    expect(groupsOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('keeps one row per group for the per-message baseline', () => {
    expect(groupsOf(['a', 'b'], 1)).toEqual([['a'], ['b']]);
  });

  it('refuses a group size below one or not an integer', () => {
    expect(() => groupsOf([1], 0)).toThrow(RangeError);
    expect(() => groupsOf([1], 1.5)).toThrow(/at least one row, got 1.5/);
  });
});
