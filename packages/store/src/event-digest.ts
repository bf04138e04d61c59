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

/**
 * The digest's input is written here, field by field, and hashed from here: no input text joined
 * per event (it copied the data and metadata texts again, about a kilobyte a send, for the GC to
 * collect). An event whose input could outgrow it is hashed from one joined text instead.
 */
const scratch = Buffer.allocUnsafe(64 * 1024) as Buffer & NodeWrites;
/** Node's own encoders behind `Buffer#write`, without its argument checks (the offsets here are in range). */
interface NodeWrites {
  utf8Write(text: string, offset: number): number;
  latin1Write(text: string, offset: number): number;
}
/** UTF-8 takes at most 3 bytes per UTF-16 code unit; what the version, a digest and the prefixes take is under this. */
const maxFixedBytes = 256;

const newline = 0x0a;
const dash = 0x2d;

/** Write `length:text` at `at` (the text's UTF-8 length known), returning where it ends. */
const writeField = (text: string, bytes: number, at: number): number => {
  const prefix = `${bytes}:`;
  const start = at + scratch.latin1Write(prefix, at);
  return start + scratch.utf8Write(text, start);
};

/**
 * The digest of an event after `previous` (undefined for a stream's first event). Each field is
 * length-prefixed, so no two different events share an input.
 */
export const eventDigest = (previous: EventDigest | undefined, event: ChainedBytes): EventDigest => {
  const { type, data, metadata } = event;
  const typeBytes = Buffer.byteLength(type);
  const dataBytes = Buffer.byteLength(data);
  const metadataBytes = metadata === null ? 0 : Buffer.byteLength(metadata);
  const head = previous ?? '-';
  // A predecessor is a hex digest; 3 bytes per code unit covers any other text too.
  if (typeBytes + dataBytes + metadataBytes + 3 * head.length + maxFixedBytes > scratch.length)
    return joinedDigest(head, event, typeBytes, dataBytes, metadataBytes);
  let at = scratch.utf8Write(`${version}\n${head}\n`, 0);
  at = writeField(type, typeBytes, at);
  scratch[at++] = newline;
  at = writeField(data, dataBytes, at);
  scratch[at++] = newline;
  if (metadata === null) scratch[at++] = dash;
  else at = writeField(metadata, metadataBytes, at);
  return hash('sha256', scratch.subarray(0, at), 'hex');
};

/** The same input as one text, for an event too large for the scratch buffer. */
const joinedDigest = (
  head: string,
  event: ChainedBytes,
  typeBytes: number,
  dataBytes: number,
  metadataBytes: number,
): EventDigest =>
  hash(
    'sha256',
    `${version}\n${head}\n${typeBytes}:${event.type}\n${dataBytes}:${event.data}\n` +
      (event.metadata === null ? '-' : `${metadataBytes}:${event.metadata}`),
    'hex',
  );
