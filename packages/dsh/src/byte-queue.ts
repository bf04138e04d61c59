/** A FIFO of byte chunks read from a stream, so a parser can wait for exactly the bytes it needs. */
export class ByteQueue {
  private chunks: Uint8Array[] = [];
  private headOffset = 0;
  private length = 0;
  /** Bytes consumed from the queue so far (the stream offset of the next byte). */
  consumed = 0;

  get available(): number {
    return this.length;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The byte `index` positions ahead, without consuming it. */
  peekByte(index: number): number {
    let offset = this.headOffset + index;
    for (const chunk of this.chunks) {
      if (offset < chunk.length) return chunk[offset] as number;
      offset -= chunk.length;
    }
    throw new RangeError(`peek past the queued bytes (${index} >= ${this.length})`);
  }

  /** Remove and return the next `count` bytes (a view when they sit in one chunk, else a copy). */
  take(count: number): Uint8Array {
    if (count > this.length) throw new RangeError(`take past the queued bytes (${count} > ${this.length})`);
    const first = this.chunks[0];
    if (first !== undefined && first.length - this.headOffset >= count) {
      const view = first.subarray(this.headOffset, this.headOffset + count);
      this.advance(count);
      return view;
    }
    const out = new Uint8Array(count);
    let filled = 0;
    while (filled < count) {
      const chunk = this.chunks[0] as Uint8Array;
      const part = Math.min(count - filled, chunk.length - this.headOffset);
      out.set(chunk.subarray(this.headOffset, this.headOffset + part), filled);
      filled += part;
      this.advance(part);
    }
    return out;
  }

  /** Drop up to `count` bytes; returns how many were dropped. */
  skip(count: number): number {
    const dropped = Math.min(count, this.length);
    let left = dropped;
    while (left > 0) {
      const chunk = this.chunks[0] as Uint8Array;
      const part = Math.min(left, chunk.length - this.headOffset);
      this.advance(part);
      left -= part;
    }
    return dropped;
  }

  private advance(count: number): void {
    this.headOffset += count;
    this.length -= count;
    this.consumed += count;
    while (this.chunks.length > 0 && this.headOffset >= (this.chunks[0] as Uint8Array).length) {
      this.headOffset -= (this.chunks[0] as Uint8Array).length;
      this.chunks.shift();
    }
  }
}
