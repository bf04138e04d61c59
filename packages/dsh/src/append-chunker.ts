import { createHash, type Hash } from 'node:crypto';

export interface ChunkLimits {
  readonly batchEvents: number;
  /** Bytes of source lines per chunk. */
  readonly batchBytes: number;
}

export interface Chunk<T> {
  readonly items: readonly T[];
  readonly digest: string;
}

/** The line an event came from: its bytes (a view made when asked for) and their length. */
export interface ChunkLine {
  readonly lineBytes: Uint8Array;
  readonly lineLength: number;
}

/** A line's bytes as a `ChunkLine`. */
export const chunkLineOf = (lineBytes: Uint8Array): ChunkLine => ({ lineBytes, lineLength: lineBytes.length });

const newline = 0x0a;
const newlineBytes = Uint8Array.of(newline);

/**
 * Cuts the events to append into chunks (by count and by bytes of their source lines) and
 * fingerprints each chunk from those lines: the SHA-256 of each line followed by `\n`. The
 * validation pass records the fingerprints; the writing pass cuts the same chunks from a second
 * read and refuses to append one whose fingerprint differs (the file changed between the passes),
 * so nothing is written that was not validated. The members of a packed row share one line, which
 * is hashed once. Lines that sit next to each other in one read buffer, separated by their `\n`,
 * are hashed as one range (the same bytes, one hash call per run instead of per line).
 */
export class AppendChunker<T> {
  private items: T[] = [];
  private count = 0;
  private bytes = 0;
  private hash: Hash = createHash('sha256');
  private lastLine = -1;
  /** The run of adjacent lines not hashed yet: its buffer and byte range. */
  private run: Uint8Array | undefined;
  private runStart = 0;
  private runEnd = 0;

  /** `fingerprinted` false: no digest (a one-pass import has no second read to compare): the chunks' digests are ''. */
  constructor(
    private readonly limits: ChunkLimits,
    private readonly fingerprinted = true,
  ) {}

  /**
   * Add one event (the item kept for the chunk, if any); returns the chunk this event completes.
   * The line's bytes are asked for only when fingerprinting; otherwise its length is enough.
   */
  add(line: number, source: ChunkLine, item?: T): Chunk<T> | undefined {
    if (line !== this.lastLine) {
      if (this.fingerprinted) this.extendRun(source.lineBytes);
      this.bytes += source.lineLength;
      this.lastLine = line;
    }
    if (item !== undefined) this.items.push(item);
    this.count += 1;
    return this.count >= this.limits.batchEvents || this.bytes >= this.limits.batchBytes ? this.cut() : undefined;
  }

  /** Items of the chunk being cut, not yet taken. */
  get held(): number {
    return this.items.length;
  }

  /**
   * Take the items of the chunk being cut so far, without cutting it: its boundary (and digest)
   * stays where it would be, and the chunk that completes it holds only the items after these.
   */
  takeHeld(): readonly T[] {
    const taken = this.items;
    this.items = [];
    return taken;
  }

  /** The last, partial chunk (if any). */
  finish(): Chunk<T> | undefined {
    return this.count === 0 ? undefined : this.cut();
  }

  private extendRun(lineBytes: Uint8Array): void {
    const run = this.run;
    if (
      run !== undefined &&
      run.buffer === lineBytes.buffer &&
      lineBytes.byteOffset === this.runEnd + 1 &&
      run[this.runEnd] === newline
    ) {
      this.runEnd = lineBytes.byteOffset + lineBytes.length;
      return;
    }
    this.hashRun();
    this.run = new Uint8Array(lineBytes.buffer);
    this.runStart = lineBytes.byteOffset;
    this.runEnd = lineBytes.byteOffset + lineBytes.length;
  }

  /** Hash the pending run with the `\n` after its last line, as if each line were hashed with its own. */
  private hashRun(): void {
    if (this.run === undefined) return;
    this.hash.update(this.run.subarray(this.runStart, this.runEnd));
    this.hash.update(newlineBytes);
    this.run = undefined;
  }

  private cut(): Chunk<T> {
    const chunk = { items: this.items, digest: this.fingerprinted ? this.takeDigest() : '' };
    this.items = [];
    this.count = 0;
    this.bytes = 0;
    return chunk;
  }

  private takeDigest(): string {
    this.hashRun();
    const digest = this.hash.digest('hex');
    this.hash = createHash('sha256');
    return digest;
  }
}
