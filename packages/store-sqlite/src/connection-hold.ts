/**
 * Which unit of appends holds the store's connection in a transaction of its own, written in
 * place (sqlite-written-unit.ts, docs/rules.md#one-pass-import). While one does, the rows it wrote
 * are visible on this connection only, uncommitted: the store's readers and group commits wait
 * for `settled` instead of reading or writing inside that transaction.
 */
export class ConnectionHold {
  private holder: object | undefined;
  private waiters: Array<() => void> = [];

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
