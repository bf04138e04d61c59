interface Entry<V> {
  readonly value: V;
  /** When the entry last moved to the young end of the cache (counted in such moves). */
  at: number;
}

/**
 * The folds a long-running TeamLog keeps, bounded: least recently used first out. An evicted
 * stream is folded again from the store the next time it is needed; an operation still holding
 * the evicted fold finishes on it (the stream's lock and the append's expected revision keep the
 * two folds of one stream from disagreeing). Recency is kept coarsely, as StreamHeads keeps it: a
 * look moves a fold to the young end only once half the cache has moved there since it did, so a
 * send's three looks cost three lookups; a fold used in the last `limit / 2` moves is never evicted.
 */
export class FoldCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private moves = 0;
  private readonly staleAfter: number;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a fold cache holds at least one fold, got ${limit}`);
    this.staleAfter = Math.floor((limit - 1) / 2);
  }

  /** The key's value, made by `make(key)` when missing. */
  get(key: K, make: (key: K) => V): V {
    const found = this.entries.get(key);
    if (found !== undefined) {
      if (this.moves - found.at > this.staleAfter) {
        this.moves += 1;
        found.at = this.moves;
        this.entries.delete(key);
        this.entries.set(key, found);
      }
      return found.value;
    }
    const value = make(key);
    this.moves += 1;
    this.entries.set(key, { value, at: this.moves });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
