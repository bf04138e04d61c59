import { FoldCache } from '../src/fold-cache';

describe('fold cache', () => {
  it('given more streams than the limit, then the least recently used fold is made again and the others are kept', () => {
    const cache = new FoldCache<string, { readonly key: string }>(2);
    const made: string[] = [];
    const fold = (key: string) =>
      cache.get(key, () => {
        made.push(key);
        return { key };
      });
    const a = fold('a');
    fold('b');
    expect(fold('a')).toBe(a);
    fold('c');
    expect(fold('a')).toBe(a);
    fold('b');
    expect(made).toEqual(['a', 'b', 'c', 'b']);
    expect(cache.size).toBe(2);
  });

  it('given a fold used within the last half of the limit, then many new streams never evict it', () => {
    const cache = new FoldCache<number, number>(64);
    const kept = cache.get(0, () => 0);
    for (let key = 1; key <= 1000; key += 1) {
      cache.get(key, () => key);
      expect(cache.get(0, () => -1)).toBe(kept);
    }
    expect(cache.size).toBe(64);
  });
});
