/**
 * A walk over the bytes of one JSON text (a line of a log, ASCII or proven UTF-8) that checks it
 * is well-formed exactly as RFC 8259 and `JSON.parse` have it, without making a string or an
 * object. It is sound, not complete: every method answers a position past what it walked, or -1
 * for "not shown well-formed" (malformed, or a form it does not read, nested too deep); the
 * caller then parses the text the ordinary way, which explains a malformed one. One walk is made
 * per reader and reused for every line, so a line allocates nothing.
 */
export class JsonByteWalk {
  bytes: Uint8Array = new Uint8Array(0);
  /** Where the text ends (exclusive): no method reads at or past it. */
  end = 0;
  /** The value of the last integer `integerAt` read. */
  integer = 0;

  /** Containers still allowed below the current one; past them the walk does not know (depth limits, the stack). */
  depthLeft = 0;

  /** Point the walk at `bytes[start, end)`, allowing `maxDepth` nested containers. */
  reset(bytes: Uint8Array, end: number, maxDepth: number): void {
    this.bytes = bytes;
    this.end = end;
    this.depthLeft = maxDepth;
  }

  /** Past the JSON whitespace at `p` (a line holds no line feed, so space, tab and carriage return). */
  skipSpace(p: number): number {
    const { bytes, end } = this;
    let at = p;
    while (at < end) {
      const c = bytes[at] as number;
      if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return at;
      at += 1;
    }
    return at;
  }

  /** The byte at `p`, or -1 at the end. */
  byteAt(p: number): number {
    return p < this.end ? (this.bytes[p] as number) : -1;
  }

  /** Past one JSON value starting at `p` (no leading whitespace), or -1. */
  skipValue(p: number): number {
    const c = this.byteAt(p);
    switch (c) {
      case 0x22:
        return this.skipString(p);
      case 0x7b:
        return this.skipObject(p);
      case 0x5b:
        return this.skipArray(p);
      case 0x74:
        return this.skipWord(p, trueBytes);
      case 0x66:
        return this.skipWord(p, falseBytes);
      case 0x6e:
        return this.skipWord(p, nullBytes);
      default:
        return this.skipNumber(p);
    }
  }

  /** Past a string at `p` (its opening quote): control characters refused, escapes as RFC 8259 lists them. */
  skipString(p: number): number {
    const { bytes, end } = this;
    if (p >= end || bytes[p] !== 0x22) return -1;
    let at = p + 1;
    while (at < end) {
      const c = bytes[at] as number;
      if (c === 0x22) return at + 1;
      if (c < 0x20) return -1;
      if (c === 0x5c) {
        at = this.skipEscape(at + 1);
        if (at < 0) return -1;
      } else at += 1;
    }
    return -1;
  }

  /** Past a string at `p` holding no backslash (a key or a word compared byte by byte), or -1. */
  skipPlainString(p: number): number {
    const { bytes, end } = this;
    if (p >= end || bytes[p] !== 0x22) return -1;
    for (let at = p + 1; at < end; at += 1) {
      const c = bytes[at] as number;
      if (c === 0x22) return at + 1;
      if (c < 0x20 || c === 0x5c) return -1;
    }
    return -1;
  }

  /** Whether the string at `p` is exactly `word` (its bytes, quoted, no escapes). */
  isWord(p: number, word: Uint8Array): boolean {
    const { bytes, end } = this;
    const last = p + word.length + 1;
    if (last >= end || bytes[p] !== 0x22 || bytes[last] !== 0x22) return false;
    for (let k = 0; k < word.length; k += 1) if (bytes[p + 1 + k] !== word[k]) return false;
    return true;
  }

  /** Past an object at `p`, its values walked as any JSON value (keys may repeat, as JSON.parse allows). */
  skipObject(p: number): number {
    if (this.depthLeft <= 0) return -1;
    this.depthLeft -= 1;
    let at = this.skipSpace(p + 1);
    if (this.byteAt(at) === 0x7d) {
      this.depthLeft += 1;
      return at + 1;
    }
    for (;;) {
      at = this.skipString(at);
      if (at < 0) return -1;
      at = this.skipColon(at);
      if (at < 0) return -1;
      at = this.skipValue(at);
      if (at < 0) return -1;
      at = this.skipSpace(at);
      const c = this.byteAt(at);
      if (c === 0x7d) {
        this.depthLeft += 1;
        return at + 1;
      }
      if (c !== 0x2c) return -1;
      at = this.skipSpace(at + 1);
    }
  }

  /** Past an array at `p`, its items walked as any JSON value. */
  skipArray(p: number): number {
    if (this.depthLeft <= 0) return -1;
    this.depthLeft -= 1;
    let at = this.skipSpace(p + 1);
    if (this.byteAt(at) === 0x5d) {
      this.depthLeft += 1;
      return at + 1;
    }
    for (;;) {
      at = this.skipValue(at);
      if (at < 0) return -1;
      at = this.skipSpace(at);
      const c = this.byteAt(at);
      if (c === 0x5d) {
        this.depthLeft += 1;
        return at + 1;
      }
      if (c !== 0x2c) return -1;
      at = this.skipSpace(at + 1);
    }
  }

  /** Past the whitespace, the colon and the whitespace after a key, or -1. */
  skipColon(p: number): number {
    const at = this.skipSpace(p);
    return this.byteAt(at) === 0x3a ? this.skipSpace(at + 1) : -1;
  }

  /** Past a number at `p` in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  skipNumber(p: number): number {
    let at = p;
    if (this.byteAt(at) === 0x2d) at += 1;
    const first = this.byteAt(at);
    if (first === 0x30) at += 1;
    else if (isDigit(first)) at = this.skipDigits(at);
    else return -1;
    if (this.byteAt(at) === 0x2e) {
      if (!isDigit(this.byteAt(at + 1))) return -1;
      at = this.skipDigits(at + 1);
    }
    const e = this.byteAt(at);
    if (e === 0x65 || e === 0x45) {
      at += 1;
      const sign = this.byteAt(at);
      if (sign === 0x2b || sign === 0x2d) at += 1;
      if (!isDigit(this.byteAt(at))) return -1;
      at = this.skipDigits(at);
    }
    return at;
  }

  /**
   * Past a non-negative integer at `p` written as plain digits (no sign, fraction or exponent) of
   * at most 15 digits, so exact (a safe integer) as JSON.parse reads it; its value in `integer`.
   * -1 for any other form, which this walk does not read.
   */
  integerAt(p: number): number {
    const first = this.byteAt(p);
    if (!isDigit(first)) return -1;
    if (first === 0x30) {
      if (isNumberTail(this.byteAt(p + 1))) return -1;
      this.integer = 0;
      return p + 1;
    }
    let value = 0;
    let at = p;
    for (let c = first; isDigit(c); c = this.byteAt(at)) {
      value = value * 10 + (c - 0x30);
      at += 1;
    }
    if (at - p > maxExactDigits || isNumberTail(this.byteAt(at))) return -1;
    this.integer = value;
    return at;
  }

  private skipDigits(p: number): number {
    let at = p;
    while (isDigit(this.byteAt(at))) at += 1;
    return at;
  }

  private skipEscape(p: number): number {
    const c = this.byteAt(p);
    switch (c) {
      case 0x22:
      case 0x5c:
      case 0x2f:
      case 0x62:
      case 0x66:
      case 0x6e:
      case 0x72:
      case 0x74:
        return p + 1;
      case 0x75:
        for (let k = 1; k <= 4; k += 1) if (!isHexDigit(this.byteAt(p + k))) return -1;
        return p + 5;
      default:
        return -1;
    }
  }

  private skipWord(p: number, word: Uint8Array): number {
    if (p + word.length > this.end) return -1;
    for (let k = 0; k < word.length; k += 1) if (this.bytes[p + k] !== word[k]) return -1;
    return p + word.length;
  }
}

/** Digits a double holds exactly whatever they are (10^15 < 2^53). */
const maxExactDigits = 15;

const trueBytes = new TextEncoder().encode('true');
const falseBytes = new TextEncoder().encode('false');
const nullBytes = new TextEncoder().encode('null');

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHexDigit = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** A byte that would go on a number (a fraction, an exponent, another digit): an integer read stops short of it. */
const isNumberTail = (c: number): boolean => isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45;
