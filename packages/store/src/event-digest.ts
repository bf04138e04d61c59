import { hash } from 'node:crypto';

/**
 * The hash chain of a stream (docs/trust-boundary.md): an event's digest covers its predecessor's
 * digest and the exact bytes the store keeps of its type, data and metadata. Hex SHA-256.
 */
export type EventDigest = string;

/** The bytes an event's digest covers: its type and the stored text of its data and metadata (null when it has none). */
export interface ChainedBytes {
  readonly type: string;
  readonly data: string;
  readonly metadata: string | null;
}

const version = 'teamlog-chain-1';
const newline = 0x0a;
const colon = 0x3a;
const dash = 0x2d;
const zero = 0x30;

/*
 * This runs for every event appended: the input is written into one buffer kept between calls
 * rather than built as a string that `hash` then encodes again (two copies of every event's data
 * as garbage). An event past `scratchLimit` takes the string path, so the kept buffer stays small.
 */
const scratchLimit = 1024 * 1024;
let scratch = Buffer.allocUnsafe(16 * 1024);

/** Write a non-negative integer's decimal digits at `at`; returns the offset after them. */
const writeDecimal = (buffer: Buffer, at: number, value: number): number => {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  let rest = value;
  for (let index = at + digits - 1; index >= at; index -= 1) {
    buffer[index] = zero + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
};

/** The digest input as one string (what the buffer path writes, byte for byte). */
const digestText = (previous: EventDigest | undefined, event: ChainedBytes): string =>
  `${version}\n${previous ?? '-'}\n${Buffer.byteLength(event.type)}:${event.type}\n${Buffer.byteLength(event.data)}:${event.data}\n` +
  (event.metadata === null ? '-' : `${Buffer.byteLength(event.metadata)}:${event.metadata}`);

/** Room left for a length prefix: digits of a length below `scratchLimit`, and the colon. */
const prefixRoom = 16;

/**
 * Write `text` as `<its UTF-8 byte length>:<text>` at `at`; returns the offset after it. The text
 * is written first, past room for its prefix, and moved back once its length is known: one pass
 * over the text, where measuring it (`Buffer.byteLength`) and then writing it took two.
 */
const writePrefixed = (buffer: Buffer, at: number, text: string): number => {
  const start = at + prefixRoom;
  const bytes = buffer.write(text, start, 'utf8');
  let end = writeDecimal(buffer, at, bytes);
  buffer[end++] = colon;
  buffer.copyWithin(end, start, start + bytes);
  return end + bytes;
};

/**
 * The digest of an event after `previous` (undefined for a stream's first event). Each field is
 * length-prefixed, so no two different events share an input.
 */
export const eventDigest = (previous: EventDigest | undefined, event: ChainedBytes): EventDigest => {
  const metadataLength = event.metadata === null ? 0 : event.metadata.length;
  // At most 3 UTF-8 bytes per UTF-16 unit, with room for each field's prefix.
  const bound =
    version.length + 3 * ((previous?.length ?? 1) + event.type.length + event.data.length + metadataLength) + 64;
  if (bound > scratchLimit) return hash('sha256', digestText(previous, event), 'hex');
  if (bound > scratch.length) scratch = Buffer.allocUnsafe(Math.min(scratchLimit, 2 ** Math.ceil(Math.log2(bound))));
  const buffer = scratch;
  let at = buffer.write(version, 0, 'latin1');
  buffer[at++] = newline;
  if (previous === undefined) buffer[at++] = dash;
  else at += buffer.write(previous, at, 'utf8');
  buffer[at++] = newline;
  at = writePrefixed(buffer, at, event.type);
  buffer[at++] = newline;
  at = writePrefixed(buffer, at, event.data);
  buffer[at++] = newline;
  if (event.metadata === null) buffer[at++] = dash;
  else at = writePrefixed(buffer, at, event.metadata);
  return hash('sha256', buffer.subarray(0, at), 'hex');
};
