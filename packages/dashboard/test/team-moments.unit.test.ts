import { sampleEvenly } from '../src/team-moments';

describe('sampleEvenly', () => {
  it('given no more items than the limit, then it keeps them all, in order', () => {
    expect(sampleEvenly([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });

  it('given a long history, then it keeps `limit` steps spread evenly, the first and the last among them', () => {
    const items = Array.from({ length: 1000 }, (_, index) => index);
    const sampled = sampleEvenly(items, 400);
    expect(sampled).toHaveLength(400);
    expect([sampled[0], sampled.at(-1)]).toEqual([0, 999]);
    expect(sampled).toEqual([...sampled].sort((a, b) => a - b));
    expect(new Set(sampled).size).toBe(400);
  });
});
