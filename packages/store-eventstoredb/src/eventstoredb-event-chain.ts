import type { EventData } from '@eventstore/db-client';
import type { JsonObject } from '@teamlog/events';
import { type ChainedBytes, type EventDigest, type EventToAppend, eventDigest } from '@teamlog/store';
import { clientEvent } from './event-data-mapping';
import { encodeMetadata, wrappedMetadataKey } from './event-metadata-mapping';
import type { ClientRecordedEvent } from './recorded-event-mapping';

/**
 * The hash chain on EventStoreDB (docs/trust-boundary.md): each event's digest, chained over its
 * predecessor's, is stored in the event's own metadata under this key, in the same append. The
 * digest is `eventDigest` over the JSON text the client sends of the data and of the metadata
 * without this key; the server hands that JSON back parsed, and `JSON.stringify` of it gives the
 * same text again, so a reader recomputes the digest from what it reads. The digest is stored as
 * base64url (43 characters instead of 64 hex: it rides on every event, inside the server's append
 * size limit) and read back as the hex the other stores and `teamlog audit --digests` use.
 */
export const chainDigestKey = '$digest';

const storedDigest = (digest: EventDigest): string => Buffer.from(digest, 'hex').toString('base64url');
/** A stored text that is not a digest stays as it is, so it matches nothing and the event reads as changed. */
const readDigest = (stored: string): EventDigest =>
  /^[A-Za-z0-9_-]{43}$/.test(stored) ? Buffer.from(stored, 'base64url').toString('hex') : stored;

/** A stream's last event as the chain sees it: its revision (undefined: no stream), id and digest. */
export interface ChainHead {
  readonly revision: bigint | undefined;
  readonly eventId: string | undefined;
  readonly digest: EventDigest | undefined;
}

export const emptyChainHead: ChainHead = { revision: undefined, eventId: undefined, digest: undefined };

/** The metadata to store: an empty object is wrapped, or beside the digest it would read back as no metadata. */
const metadataToChain = (event: EventToAppend): JsonObject | undefined => {
  const encoded = encodeMetadata(event.metadata);
  return encoded !== undefined && Object.keys(encoded).length === 0 ? { [wrappedMetadataKey]: encoded } : encoded;
};

/** The client's events for a batch chained after `previous` (undefined: the stream's first event). */
export const chainEvents = (events: readonly EventToAppend[], previous: EventDigest | undefined): EventData[] => {
  let last = previous;
  return events.map((event) => {
    const metadata = metadataToChain(event);
    const bytes: ChainedBytes = {
      type: event.type,
      data: JSON.stringify(event.data),
      metadata: metadata === undefined ? null : JSON.stringify(metadata),
    };
    last = eventDigest(last, bytes);
    return clientEvent(event, { ...metadata, [chainDigestKey]: storedDigest(last) });
  });
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** Stored metadata split into the digest it carries (null: none) and the metadata the port reads. */
export const splitChainDigest = (
  stored: unknown,
): { readonly digest: EventDigest | null; readonly metadata: unknown } => {
  if (!isPlainObject(stored) || !Object.hasOwn(stored, chainDigestKey)) return { digest: null, metadata: stored };
  const { [chainDigestKey]: digest, ...rest } = stored;
  return {
    digest: typeof digest === 'string' ? readDigest(digest) : null,
    metadata: Object.keys(rest).length === 0 ? undefined : rest,
  };
};

const textOf = (value: unknown): string =>
  value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : (JSON.stringify(value) ?? '');

/** The bytes an event's digest covers, recomputed from what the client read, and the digest stored with it. */
export const storedChainOf = (
  recorded: ClientRecordedEvent,
): { readonly digest: EventDigest | null; readonly bytes: ChainedBytes } => {
  const { digest, metadata } = splitChainDigest(recorded.metadata);
  return {
    digest,
    bytes: {
      type: recorded.type,
      data: textOf(recorded.data),
      metadata: metadata === undefined ? null : textOf(metadata),
    },
  };
};
