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
 * The digest of an event after `previous` (undefined for a stream's first event). Each field is
 * length-prefixed, so no two different events share an input.
 */
export const eventDigest = (previous: EventDigest | undefined, event: ChainedBytes): EventDigest =>
  // One string, hashed in one call (node's one-shot `hash`): this runs for every event appended.
  hash(
    'sha256',
    `${version}\n${previous ?? '-'}\n${Buffer.byteLength(event.type)}:${event.type}\n${Buffer.byteLength(event.data)}:${event.data}\n` +
      (event.metadata === null ? '-' : `${Buffer.byteLength(event.metadata)}:${event.metadata}`),
    'hex',
  );
