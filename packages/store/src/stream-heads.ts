import type { KnownRevision } from './event-store';
import type { StreamName } from './stream-name';

interface Entry {
  known: KnownRevision;
  /** When the entry last moved to the young end of the table (counted in such moves). */
  at: number;
}

/**
 * The heads an adapter has seen (its own commits, and the head a read started from), at most
 * `limit` of them, the least recently used out first: a long-running process touching many streams
 * keeps a bounded table, and a stream that fell out is simply read again. Recency is kept coarsely:
 * a look or a new head moves an entry to the young end only once half the table has moved there
 * since it did, so the steady case (a send looks at a few heads and sets one) costs a lookup, not a
 * delete and re-insert; an entry used in the last `limit / 2` moves is never the one evicted.
 */
export class StreamHeads {
  private readonly heads = new Map<StreamName, Entry>();
  private moves = 0;
  private readonly staleAfter: number;

  constructor(private readonly limit = 10_000) {
    this.staleAfter = Math.floor((limit - 1) / 2);
  }

  get(stream: StreamName): KnownRevision | undefined {
    const entry = this.heads.get(stream);
    if (entry === undefined) return undefined;
    if (this.moves - entry.at > this.staleAfter) this.moveYoung(stream, entry);
    return entry.known;
  }

  set(stream: StreamName, revision: bigint | undefined): void {
    const entry = this.heads.get(stream);
    if (entry === undefined) {
      this.moves += 1;
      this.heads.set(stream, { known: { revision }, at: this.moves });
      if (this.heads.size > this.limit) this.heads.delete(this.heads.keys().next().value as StreamName);
      return;
    }
    // A new object: a head handed out before never changes under its holder.
    entry.known = { revision };
    if (this.moves - entry.at > this.staleAfter) this.moveYoung(stream, entry);
  }

  /** Another writer wrote: nothing seen before can be trusted. */
  clear(): void {
    this.heads.clear();
  }

  get size(): number {
    return this.heads.size;
  }

  private moveYoung(stream: StreamName, entry: Entry): void {
    this.moves += 1;
    entry.at = this.moves;
    this.heads.delete(stream);
    this.heads.set(stream, entry);
  }
}
