/**
 * When the runner commits: once `batchSize` events are folded, or once `intervalMs` have passed
 * since the first event not yet committed, whichever comes first. A commit costs a durable
 * transaction, so a catch-up that commits by size and time instead of every few hundred events
 * writes and syncs far less; the interval still bounds how much work a crash can lose.
 */
export class CommitCadence {
  private folded = 0;
  private firstFoldedAt = 0;

  constructor(
    private readonly batchSize: number,
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  /** Events folded since the last commit. */
  get pending(): number {
    return this.folded;
  }

  /** One more event folded; true when the views are due for a commit. */
  foldedOne(): boolean {
    if (this.folded === 0) this.firstFoldedAt = this.now();
    this.folded += 1;
    return this.folded >= this.batchSize || this.now() - this.firstFoldedAt >= this.intervalMs;
  }

  committed(): void {
    this.folded = 0;
  }
}
