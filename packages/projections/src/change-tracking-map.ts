/**
 * A Map that remembers which keys were set or deleted since its changes were last cleared. The
 * domain's Team fold updates its maps in place; giving it these maps lets a view store write only
 * the members, tasks and messages a batch touched, whatever the fold did to get there.
 */
export class ChangeTrackingMap<K, V> extends Map<K, V> {
  private readonly changed = new Set<K>();

  /** A map holding `entries` with no change recorded (views loaded as they were committed). */
  static unchanged<K, V>(entries: Iterable<readonly [K, V]>): ChangeTrackingMap<K, V> {
    const map = new ChangeTrackingMap<K, V>();
    for (const [key, value] of entries) Map.prototype.set.call(map, key, value);
    return map;
  }

  override set(key: K, value: V): this {
    this.changed.add(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.changed.add(key);
    return super.delete(key);
  }

  override clear(): void {
    for (const key of this.keys()) this.changed.add(key);
    super.clear();
  }

  /** Keys set or deleted since the last `clearChanges` (a deleted key is no longer in the map). */
  changedKeys(): ReadonlySet<K> {
    return this.changed;
  }

  clearChanges(): void {
    this.changed.clear();
  }
}
