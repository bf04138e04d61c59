import type { EventDigest, StreamName } from '@teamlog/store';

/**
 * One stream's chain end as this connection knows it: the last committed revision and digest, and
 * the end the transaction under way planned for it (valid only while `plannedIn` is that
 * transaction's number).
 */
export interface KeptChainEnd {
  /** The last revision this connection committed and kept, or undefined when none is kept. */
  revision: bigint | undefined;
  digest: EventDigest | undefined;
  plannedIn: number;
  plannedRevision: bigint;
  plannedDigest: EventDigest | undefined;
}

/**
 * The chain's digest of the last event this connection committed to each stream, and of the last
 * one the transaction under way planned, in one entry per stream. A group commit looks a stream up
 * once per append and marks the planned end in that entry; a commit makes the marked ends the
 * committed ones, a new transaction leaves an unfinished one's marks unread. Before, the planned
 * ends were a second map filled and emptied every commit, which rebuilt its table per group
 * (docs/benchmarks.md, _64 senders: one chain-end entry per stream_).
 *
 * At most `limit` streams are kept, the first kept out first: a stream evicted while still in use
 * only reads its predecessor's digest back once.
 */
export class KeptChainEnds {
  private readonly ends = new Map<StreamName, KeptChainEnd>();
  /** The entries planned in the transaction under way, each once. */
  private readonly planned: KeptChainEnd[] = [];
  private transaction = 0;

  constructor(private readonly limit = 10_000) {}

  /** A new transaction: nothing is planned in it yet (an earlier one's marks are never read again). */
  begin(): void {
    this.transaction += 1;
    this.planned.length = 0;
  }

  /** The stream's entry, if kept: hand it to the calls below so one append looks it up once. */
  entry(stream: StreamName): KeptChainEnd | undefined {
    return this.ends.get(stream);
  }

  /** Whether the transaction under way planned an end for the entry's stream (then `plannedRevision` and `plannedDigest` hold it). */
  isPlanned(entry: KeptChainEnd | undefined): entry is KeptChainEnd {
    return entry !== undefined && entry.plannedIn === this.transaction;
  }

  /** The committed digest of the event before `revision`, when the entry holds exactly that event's end. */
  precedes(entry: KeptChainEnd | undefined, revision: bigint): entry is KeptChainEnd {
    return entry !== undefined && entry.revision !== undefined && entry.revision + 1n === revision;
  }

  /** The transaction under way ends the stream's chain at `revision` with `digest` (its entry made on first use). */
  plan(stream: StreamName, entry: KeptChainEnd | undefined, revision: bigint, digest: EventDigest | undefined): void {
    let kept = entry;
    if (kept === undefined) {
      kept = { revision: undefined, digest: undefined, plannedIn: 0, plannedRevision: revision, plannedDigest: digest };
      this.ends.set(stream, kept);
    }
    if (kept.plannedIn !== this.transaction) {
      kept.plannedIn = this.transaction;
      this.planned.push(kept);
    }
    kept.plannedRevision = revision;
    kept.plannedDigest = digest;
  }

  /** The transaction committed: the ends it planned become the ones later appends resume from. */
  commit(): void {
    for (const kept of this.planned) {
      kept.revision = kept.plannedRevision;
      kept.digest = kept.plannedDigest;
      // Marked as not planned, so a later planned check needs no new transaction to fail.
      kept.plannedIn = 0;
    }
    this.planned.length = 0;
    while (this.ends.size > this.limit) this.ends.delete(this.ends.keys().next().value as StreamName);
  }

  /** Another connection wrote: no kept end can be trusted. */
  clear(): void {
    this.ends.clear();
    this.planned.length = 0;
  }

  get size(): number {
    return this.ends.size;
  }
}
