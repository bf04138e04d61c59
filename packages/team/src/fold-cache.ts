/**
 * The folds a long-running TeamLog keeps, bounded: least recently used first out. An evicted
 * stream is folded again from the store the next time it is needed; an operation still holding
 * the evicted fold finishes on it (the stream's lock and the append's expected revision keep the
 * two folds of one stream from disagreeing).
 */
export class FoldCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a fold cache holds at least one fold, got ${limit}`);
  }

  get(key: K, make: () => V): V {
    const found = this.entries.get(key);
    if (found !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const made = make();
    this.entries.set(key, made);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
    return made;
  }

  get size(): number {
    return this.entries.size;
  }
}
