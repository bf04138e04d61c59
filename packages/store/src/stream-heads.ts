import type { KnownRevision } from './event-store';
import type { StreamName } from './stream-name';

/**
 * The heads an adapter has seen (its own commits, and the head a read started from), most
 * recently used first, at most `limit` of them: a long-running process touching many streams
 * keeps a bounded table, and a stream that fell out is simply read again.
 */
export class StreamHeads {
  private readonly heads = new Map<StreamName, KnownRevision>();

  constructor(private readonly limit = 10_000) {}

  get(stream: StreamName): KnownRevision | undefined {
    const head = this.heads.get(stream);
    if (head === undefined) return undefined;
    this.heads.delete(stream);
    this.heads.set(stream, head);
    return head;
  }

  set(stream: StreamName, revision: bigint | undefined): void {
    this.heads.delete(stream);
    this.heads.set(stream, { revision });
    if (this.heads.size > this.limit) this.heads.delete(this.heads.keys().next().value as StreamName);
  }

  /** Another writer wrote: nothing seen before can be trusted. */
  clear(): void {
    this.heads.clear();
  }

  get size(): number {
    return this.heads.size;
  }
}
