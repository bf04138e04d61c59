import { randomFillSync } from 'node:crypto';

/*
 * uuid v7 (RFC 9562): 48 bits of Unix milliseconds, then a counter where the RFC puts rand_a and
 * the top of rand_b (method 1, "fixed bit-length dedicated counter"), so ids made in one process
 * sort in the order they were made; the last 43 bits are random. Random bytes are drawn a pool at
 * a time and the text is written byte by byte into one buffer: a send makes two ids, and the `uuid`
 * package's v7 filled and formatted 16 bytes for each.
 */

const hexDigits = Buffer.from('0123456789abcdef', 'latin1');
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
  // The id's text is written into one buffer and read out as one string (joining 2-character pieces
  // allocated a string per join, about 600 bytes an id).
  const text = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');
  const put = (at: number, byte: number): void => {
    text[at] = hexDigits[(byte >>> 4) & 0x0f] as number;
    text[at + 1] = hexDigits[byte & 0x0f] as number;
  };
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
    put(0, high >>> 24);
    put(2, high >>> 16);
    put(4, high >>> 8);
    put(6, high);
    put(9, low >>> 8);
    put(11, low);
    put(14, 0x70 | ((counter >>> 27) & 0x0f));
    put(16, counter >>> 19);
    put(19, 0x80 | ((counter >>> 13) & 0x3f));
    put(21, counter >>> 5);
    put(24, ((counter << 3) & 0xf8) | ((pool[tail] as number) & 0x07));
    for (let byte = 1; byte < 6; byte += 1) put(24 + 2 * byte, pool[tail + byte] as number);
    return text.toString('latin1', 0, 36);
  };
};
