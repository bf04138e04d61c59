import { createHash, Hash } from 'crypto';

export interface ChunkLimits {
  readonly batchEvents: number;
  /** Bytes of source lines per chunk. */
  readonly batchBytes: number;
}

export interface Chunk<T> {
  readonly items: readonly T[];
  readonly digest: string;
}

/**
 * Cuts the events to append into chunks (by count and by bytes of their source lines) and
 * fingerprints each chunk from those lines. The validation pass records the fingerprints; the
 * writing pass cuts the same chunks from a second read and refuses to append one whose
 * fingerprint differs (the file changed between the passes), so nothing is written that was not
 * validated. The members of a packed row share one line, which is hashed once.
 */
export class AppendChunker<T> {
  private items: T[] = [];
  private count = 0;
  private bytes = 0;
  private hash: Hash = createHash('sha256');
  private lastLine = -1;

  constructor(private readonly limits: ChunkLimits) {}

  /** Add one event (the item kept for the chunk, if any); returns the chunk this event completes. */
  add(line: number, lineBytes: Uint8Array, item?: T): Chunk<T> | undefined {
    if (line !== this.lastLine) {
      this.hash.update(lineBytes);
      this.bytes += lineBytes.length;
      this.lastLine = line;
    }
    if (item !== undefined) this.items.push(item);
    this.count += 1;
    return this.count >= this.limits.batchEvents || this.bytes >= this.limits.batchBytes ? this.cut() : undefined;
  }

  /** The last, partial chunk (if any). */
  finish(): Chunk<T> | undefined {
    return this.count === 0 ? undefined : this.cut();
  }

  private cut(): Chunk<T> {
    const chunk = { items: this.items, digest: this.hash.digest('hex') };
    this.items = [];
    this.count = 0;
    this.bytes = 0;
    this.hash = createHash('sha256');
    return chunk;
  }
}
