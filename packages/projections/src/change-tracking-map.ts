/**
 * A Map that remembers which keys were set or deleted since its changes were last cleared. The
 * domain's Team fold updates its maps in place; giving it these maps lets a view store write only
 * the members, tasks and messages a batch touched, whatever the fold did to get there.
 *
 * Recording a change allocates nothing in steady state: each key keeps the number of the batch it
 * last changed in (setting a number on a key already there allocates nothing), and the changed keys
 * of a batch go into a list whose room is kept from batch to batch.
 */
export class ChangeTrackingMap<K, V> extends Map<K, V> {
  private readonly stamps = new Map<K, number>();
  private readonly changed: K[] = [];
  private changedCount = 0;
  private batch = 0;

  /** A map holding `entries` with no change recorded (views loaded as they were committed). */
  static unchanged<K, V>(entries: Iterable<readonly [K, V]>): ChangeTrackingMap<K, V> {
    const map = new ChangeTrackingMap<K, V>();
    for (const [key, value] of entries) Map.prototype.set.call(map, key, value);
    return map;
  }

  override set(key: K, value: V): this {
    this.note(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.note(key);
    return super.delete(key);
  }

  override clear(): void {
    for (const key of this.keys()) this.note(key);
    super.clear();
  }

  /** Keys set or deleted since the last `clearChanges`, in the order they first changed (a deleted key is no longer in the map). */
  changedKeys(): readonly K[] {
    return this.changed.slice(0, this.changedCount);
  }

  clearChanges(): void {
    // A deleted key's stamp goes with its batch, so the stamps hold no more keys than the map.
    for (let index = 0; index < this.changedCount; index += 1) {
      const key = this.changed[index] as K;
      if (!this.has(key)) this.stamps.delete(key);
    }
    this.changed.fill(undefined as K, 0, this.changedCount);
    this.changedCount = 0;
    this.batch += 1;
  }

  private note(key: K): void {
    if (this.stamps.get(key) === this.batch) return;
    this.stamps.set(key, this.batch);
    if (this.changedCount < this.changed.length) this.changed[this.changedCount] = key;
    else this.changed.push(key);
    this.changedCount += 1;
  }
}
