/**
 * Streaming XXH64 (seed 0), the checksum zstd writes at the end of a frame (its low 32 bits).
 * fzstd skips frame checksums, and the reference says a checksum failure in a complete frame means
 * the file is corrupt, so the reader checks them itself. 64-bit arithmetic is done on 32-bit
 * halves because BigInt would be far too slow for gigabyte logs.
 */

const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

// Results of the 64-bit helpers, to avoid allocating a pair per operation.
let rh = 0;
let rl = 0;

const mul = (ah: number, al: number, bh: number, bl: number): void => {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  rl = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  rh = (p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
};

const add = (ah: number, al: number, bh: number, bl: number): void => {
  const lo = al + bl;
  rl = lo >>> 0;
  rh = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
};

const rotl = (h: number, l: number, n: number): void => {
  if (n >= 32) {
    const t = h;
    h = l;
    l = t;
    n -= 32;
  }
  if (n === 0) {
    rh = h >>> 0;
    rl = l >>> 0;
    return;
  }
  rh = ((h << n) | (l >>> (32 - n))) >>> 0;
  rl = ((l << n) | (h >>> (32 - n))) >>> 0;
};

/** acc = rotl(acc + input * P2, 31) * P1 */
const round = (acch: number, accl: number, inh: number, inl: number): void => {
  mul(inh, inl, P2H, P2L);
  add(acch, accl, rh, rl);
  rotl(rh, rl, 31);
  mul(rh, rl, P1H, P1L);
};

const read32 = (bytes: Uint8Array, at: number): number =>
  ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24)) >>> 0;

export class XxHash64 {
  private readonly lanes = new Uint32Array(8);
  private readonly pending = new Uint8Array(32);
  private pendingLength = 0;
  private totalLength = 0;

  constructor() {
    const l = this.lanes;
    add(P1H, P1L, P2H, P2L);
    l[0] = rh; l[1] = rl;
    l[2] = P2H; l[3] = P2L;
    l[4] = 0; l[5] = 0;
    // 0 - P1
    add(~P1H >>> 0, ~P1L >>> 0, 0, 1);
    l[6] = rh; l[7] = rl;
  }

  update(bytes: Uint8Array): this {
    this.totalLength += bytes.length;
    let at = 0;
    if (this.pendingLength > 0) {
      const take = Math.min(32 - this.pendingLength, bytes.length);
      this.pending.set(bytes.subarray(0, take), this.pendingLength);
      this.pendingLength += take;
      at = take;
      if (this.pendingLength < 32) return this;
      this.stripe(this.pending, 0);
      this.pendingLength = 0;
    }
    for (; at + 32 <= bytes.length; at += 32) this.stripe(bytes, at);
    if (at < bytes.length) {
      this.pending.set(bytes.subarray(at), 0);
      this.pendingLength = bytes.length - at;
    }
    return this;
  }

  /** The 64-bit digest as [high, low] unsigned 32-bit halves. */
  digest(): [number, number] {
    const l = this.lanes;
    let h: number, lo: number;
    if (this.totalLength >= 32) {
      rotl(l[0] as number, l[1] as number, 1); let sh = rh, sl = rl;
      rotl(l[2] as number, l[3] as number, 7); add(sh, sl, rh, rl); sh = rh; sl = rl;
      rotl(l[4] as number, l[5] as number, 12); add(sh, sl, rh, rl); sh = rh; sl = rl;
      rotl(l[6] as number, l[7] as number, 18); add(sh, sl, rh, rl); sh = rh; sl = rl;
      for (let lane = 0; lane < 4; lane += 1) {
        round(0, 0, l[lane * 2] as number, l[lane * 2 + 1] as number);
        sh = (sh ^ rh) >>> 0; sl = (sl ^ rl) >>> 0;
        mul(sh, sl, P1H, P1L);
        add(rh, rl, P4H, P4L);
        sh = rh; sl = rl;
      }
      h = sh; lo = sl;
    } else {
      h = P5H; lo = P5L;
    }
    add(h, lo, Math.floor(this.totalLength / 0x100000000) >>> 0, this.totalLength >>> 0);
    h = rh; lo = rl;
    const rest = this.pending;
    let at = 0;
    for (; at + 8 <= this.pendingLength; at += 8) {
      round(0, 0, read32(rest, at + 4), read32(rest, at));
      h = (h ^ rh) >>> 0; lo = (lo ^ rl) >>> 0;
      rotl(h, lo, 27); mul(rh, rl, P1H, P1L); add(rh, rl, P4H, P4L);
      h = rh; lo = rl;
    }
    if (at + 4 <= this.pendingLength) {
      mul(0, read32(rest, at), P1H, P1L);
      h = (h ^ rh) >>> 0; lo = (lo ^ rl) >>> 0;
      rotl(h, lo, 23); mul(rh, rl, P2H, P2L); add(rh, rl, P3H, P3L);
      h = rh; lo = rl;
      at += 4;
    }
    for (; at < this.pendingLength; at += 1) {
      mul(0, rest[at] as number, P5H, P5L);
      h = (h ^ rh) >>> 0; lo = (lo ^ rl) >>> 0;
      rotl(h, lo, 11); mul(rh, rl, P1H, P1L);
      h = rh; lo = rl;
    }
    // avalanche
    lo = (lo ^ (h >>> 1)) >>> 0;
    mul(h, lo, P2H, P2L); h = rh; lo = rl;
    lo = (lo ^ ((h << 3) | (lo >>> 29))) >>> 0; h = (h ^ (h >>> 29)) >>> 0;
    mul(h, lo, P3H, P3L); h = rh; lo = rl;
    lo = (lo ^ h) >>> 0;
    return [h, lo];
  }

  private stripe(bytes: Uint8Array, at: number): void {
    const l = this.lanes;
    for (let lane = 0; lane < 4; lane += 1) {
      const offset = at + lane * 8;
      round(l[lane * 2] as number, l[lane * 2 + 1] as number, read32(bytes, offset + 4), read32(bytes, offset));
      l[lane * 2] = rh;
      l[lane * 2 + 1] = rl;
    }
  }
}

/** The low 32 bits of XXH64(bytes), as zstd stores them (little-endian) after a frame. */
export const zstdChecksumOf = (hash: XxHash64): number => hash.digest()[1];
