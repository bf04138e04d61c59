import { randomFillSync } from 'node:crypto';

/*
 * uuid v7 (RFC 9562): 48 bits of Unix milliseconds, then a counter where the RFC puts rand_a and
 * the top of rand_b (method 1, "fixed bit-length dedicated counter"), so ids made in one process
 * sort in the order they were made; the last 43 bits are random. Random bytes are drawn a pool at
 * a time and the text is built from a byte-to-hex table: a send makes two ids, and the `uuid`
 * package's v7 filled and formatted 16 bytes for each.
 */

const hex: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const poolBytes = 4096;
/** The counter's 31 bits: seeded at random each millisecond below 2^30, so it never runs out within one. */
const counterSeedBits = 30;

export interface UuidV7Options {
  readonly now?: () => number;
  /** Fills a buffer with random bytes (default: crypto's). */
  readonly fill?: (buffer: Uint8Array) => void;
}

/** A source of uuid v7 text, monotonic within the source (a clock that steps back keeps the last millisecond). */
export const uuidV7Source = (options: UuidV7Options = {}): (() => string) => {
  const now = options.now ?? Date.now;
  const fill = options.fill ?? ((buffer: Uint8Array) => randomFillSync(buffer));
  const pool = new Uint8Array(poolBytes);
  let used = poolBytes;
  const random = (count: number): number => {
    if (used + count > poolBytes) {
      fill(pool);
      used = 0;
    }
    used += count;
    return used - count;
  };
  let lastMs = -1;
  let counter = 0;
  return () => {
    const ms = now();
    if (ms > lastMs) {
      lastMs = ms;
      const at = random(4);
      counter =
        (pool[at] as number) |
        ((pool[at + 1] as number) << 8) |
        ((pool[at + 2] as number) << 16) |
        (((pool[at + 3] as number) & ((1 << (counterSeedBits - 24)) - 1)) << 24);
    } else {
      counter += 1;
      // 2^31 ids in one millisecond: borrow the next one rather than repeat an id.
      if (counter > 0x7fffffff) {
        lastMs += 1;
        counter = 0;
      }
    }
    const tail = random(6);
    const high = Math.floor(lastMs / 0x10000);
    const low = lastMs % 0x10000;
    return (
      (hex[(high >>> 24) & 0xff] as string) +
      hex[(high >>> 16) & 0xff] +
      hex[(high >>> 8) & 0xff] +
      hex[high & 0xff] +
      '-' +
      hex[(low >>> 8) & 0xff] +
      hex[low & 0xff] +
      '-' +
      hex[0x70 | ((counter >>> 27) & 0x0f)] +
      hex[(counter >>> 19) & 0xff] +
      '-' +
      hex[0x80 | ((counter >>> 13) & 0x3f)] +
      hex[(counter >>> 5) & 0xff] +
      '-' +
      hex[((counter << 3) & 0xf8) | ((pool[tail] as number) & 0x07)] +
      hex[pool[tail + 1] as number] +
      hex[pool[tail + 2] as number] +
      hex[pool[tail + 3] as number] +
      hex[pool[tail + 4] as number] +
      hex[pool[tail + 5] as number]
    );
  };
};
