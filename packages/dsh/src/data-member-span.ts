/*
 * Where an event line's `data` value lies in the line's bytes, so a store that keeps JSON text can
 * keep the input's own bytes instead of re-encoding the parsed value (docs/rules.md#stored-data-bytes).
 * The line has already been parsed by JSON.parse, so it is valid JSON; anything unexpected still
 * answers `undefined` (the caller then encodes the value), never a wrong span.
 */

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const colon = 0x3a;
const comma = 0x2c;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** -1 past the end, so no read ever leaves the array (an out-of-bounds read slows the whole loop down). */
const byteAt = (bytes: Uint8Array, index: number): number => (index < bytes.length ? (bytes[index] as number) : -1);

const skipSpace = (bytes: Uint8Array, at: number): number => {
  let index = at;
  while (index < bytes.length && isSpace(bytes[index] as number)) index += 1;
  return index;
};

/** `at` is on an opening quote: the index after its closing quote, or -1. An escape skips the byte after it. */
const skipString = (bytes: Uint8Array, at: number): number => {
  const length = bytes.length;
  for (let index = at + 1; index < length; index += 1) {
    const byte = bytes[index] as number;
    if (byte === quote) return index + 1;
    if (byte === backslash) index += 1;
  }
  return -1;
};

/** `at` is on `{` or `[`: the index after the bracket that closes it, or -1. */
const skipContainer = (bytes: Uint8Array, at: number): number => {
  const length = bytes.length;
  let depth = 0;
  for (let index = at; index < length; index += 1) {
    const byte = bytes[index] as number;
    if (byte === quote) {
      const end = skipString(bytes, index);
      if (end < 0) return -1;
      index = end - 1;
    } else if (byte === openBrace || byte === openBracket) depth += 1;
    else if (byte === closeBrace || byte === closeBracket) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
};

/** `at` is on a value's first byte: the index after its last byte, or -1. */
const skipValue = (bytes: Uint8Array, at: number): number => {
  const first = byteAt(bytes, at);
  if (first === quote) return skipString(bytes, at);
  if (first === openBrace || first === openBracket) return skipContainer(bytes, at);
  // A number, true, false or null: up to the next delimiter.
  let index = at;
  while (index < bytes.length) {
    const byte = bytes[index] as number;
    if (byte === comma || byte === closeBrace || byte === closeBracket || isSpace(byte)) break;
    index += 1;
  }
  return index > at ? index : -1;
};

/** Whether the key string at [start, end) (quotes included) is "data"; an escaped key is decoded to compare. */
const isDataKey = (bytes: Uint8Array, start: number, end: number): boolean => {
  if (end - start === 6)
    return (
      bytes[start + 1] === 0x64 && bytes[start + 2] === 0x61 && bytes[start + 3] === 0x74 && bytes[start + 4] === 0x61
    );
  if (bytes.subarray(start, end).indexOf(backslash) < 0) return false;
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8')) === 'data';
  } catch {
    return false;
  }
};

/** A byte range [start, end) of a line. */
export interface ByteSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * The bytes of the top-level `data` member's value in a line holding one JSON object, or undefined
 * when the line is not such an object or has no `data`. With a key given twice, the last one (the
 * value JSON.parse keeps).
 */
export const dataMemberSpan = (bytes: Uint8Array): ByteSpan | undefined => {
  let index = skipSpace(bytes, 0);
  if (byteAt(bytes, index) !== openBrace) return undefined;
  index = skipSpace(bytes, index + 1);
  let span: ByteSpan | undefined;
  while (byteAt(bytes, index) === quote) {
    const keyEnd = skipString(bytes, index);
    if (keyEnd < 0) return undefined;
    const isData = isDataKey(bytes, index, keyEnd);
    index = skipSpace(bytes, keyEnd);
    if (byteAt(bytes, index) !== colon) return undefined;
    const valueStart = skipSpace(bytes, index + 1);
    const valueEnd = skipValue(bytes, valueStart);
    if (valueEnd < 0) return undefined;
    if (isData) span = { start: valueStart, end: valueEnd };
    index = skipSpace(bytes, valueEnd);
    const next = byteAt(bytes, index);
    if (next === comma) index = skipSpace(bytes, index + 1);
    else if (next === closeBrace) return span;
    else return undefined;
  }
  return undefined;
};

/** The text of the line's `data` value, as the line holds it; undefined when it has none (see dataMemberSpan). */
export const dataMemberText = (bytes: Uint8Array): string | undefined => {
  const span = dataMemberSpan(bytes);
  if (span === undefined) return undefined;
  // A line of the reader is a Buffer already: decoded in place, without another view of it.
  if (Buffer.isBuffer(bytes)) return bytes.toString('utf8', span.start, span.end);
  return Buffer.from(bytes.buffer, bytes.byteOffset + span.start, span.end - span.start).toString('utf8');
};
