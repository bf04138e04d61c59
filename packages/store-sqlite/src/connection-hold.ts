/**
 * Which unit of appends holds the store's connection in a transaction of its own, written in
 * place (sqlite-written-unit.ts, docs/rules.md#one-pass-import). While one does, the rows it wrote
 * are visible on this connection only, uncommitted: the store's readers read up to
 * `committedThrough` (the last position committed when the unit began writing), and its group
 * commits wait for `settled` instead of writing inside that transaction.
 */
export class ConnectionHold {
  private holder: object | undefined;
  private waiters: Array<() => void> = [];
  private through: bigint | undefined;

  /** While a unit writes in place: the last committed position, where reads stop. */
  get committedThrough(): bigint | undefined {
    return this.holder === undefined ? undefined : this.through;
  }

  /** The holder began writing after `position`. */
  writesAfter(owner: object, position: bigint): void {
    if (this.holder === owner) this.through = position;
  }

  get held(): boolean {
    return this.holder !== undefined;
  }

  isHeldBy(owner: object): boolean {
    return this.holder === owner;
  }

  /** Take the connection for `owner`, unless another owner holds it. */
  tryTake(owner: object): boolean {
    if (this.holder !== undefined && this.holder !== owner) return false;
    this.holder = owner;
    return true;
  }

  /** The owner's transaction ended (committed or rolled back): whoever waits goes on. */
  release(owner: object): void {
    if (this.holder !== owner) return;
    this.holder = undefined;
    this.through = undefined;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The connection is closing: whoever holds it holds it no longer. */
  breakOff(): void {
    if (this.holder !== undefined) this.release(this.holder);
  }

  /** Resolves at once when nobody holds the connection, else when its holder releases it. */
  settled(): Promise<void> {
    if (this.holder === undefined) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}
