import { groupSize } from '@teamlog/store-postgres';

describe('the size of a group commit', () => {
  it('takes the oldest appends while their events fit', () => {
    expect(groupSize([2, 2, 2, 7], 5)).toBe(2);
    expect(groupSize([1, 1, 1], 10)).toBe(3);
  });

  it('takes an append larger than the limit alone, never splitting it', () => {
    expect(groupSize([7, 1], 5)).toBe(1);
  });

  it('takes nothing from nothing', () => {
    expect(groupSize([], 5)).toBe(0);
  });
});
