import { createHash } from 'node:crypto';
import type { EventId } from '@teamlog/events';

/** The uuid v5 namespace of imported session logs (fixed: ids must be the same on every import). */
export const importNamespace = '5b0f7a8e-3c51-4d2a-9e61-2f4b8c7d9a10';

const namespaceBytes = Buffer.from(importNamespace.replace(/-/g, ''), 'hex');

/**
 * RFC 4122 uuid v5 (SHA-1 of namespace + name), the same value as `uuid`'s `v5(name, namespace)`
 * (a test checks it), computed with the native SHA-1 (the header record's id).
 */
export const uuidV5 = (name: string): string => {
  const hash = createHash('sha1').update(namespaceBytes).update(name, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The store ids of the events of one session stream: deterministic, so re-importing appends the
 * same ids and the store's idempotent-retry guarantee applies. A uuid v8 whose first half is a
 * hash of the stream and whose second half is the seq: ids of one session are consecutive, so the
 * store's unique-id index grows at one place per session instead of at random (about twice as
 * fast to insert in SQLite as random ids). The stream hash is computed once per stream, not per
 * event (an import names every event).
 */
export const sessionEventIds = (streamKey: string): ((seq: number) => EventId) => {
  const hash = createHash('sha1').update(namespaceBytes).update(`session/${streamKey}`, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x80;
  const hex = hash.toString('hex', 0, 8);
  const head = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-`;
  // Seqs come in order: the id up to its last three hex digits changes once per 4096 seqs, so it is
  // made then, and each id is that prefix and one of 4096 shared endings (one string made per event).
  let block = -1;
  let prefix = '';
  return (seq) => {
    if (!Number.isSafeInteger(seq) || seq < 0)
      throw new RangeError(`an event seq must be a non-negative safe integer, got ${seq}`);
    const high = Math.floor(seq / 4096);
    if (high !== block) {
      // Bytes 8-15 are the seq (64-bit big-endian); a safe integer leaves byte 8 zero, so with the
      // RFC 9562 variant bits it is always 0x80.
      const digits = high.toString(16).padStart(11, '0');
      prefix = `${head}80${digits.slice(0, 2)}-${digits.slice(2)}`;
      block = high;
    }
    return `${prefix}${lowDigits[seq % 4096]}` as EventId;
  };
};

/** The last three hex digits of a seq, for each value. */
const lowDigits: readonly string[] = Array.from({ length: 4096 }, (_, low) => low.toString(16).padStart(3, '0'));

/** The store id of event `seq` of a session stream (see `sessionEventIds`). */
export const sessionEventId = (streamKey: string, seq: number): EventId => sessionEventIds(streamKey)(seq);

export const sessionHeaderEventId = (streamKey: string): EventId => uuidV5(`sessionheader/${streamKey}`) as EventId;

/** The id of the header record a later generation of a migrated log adds (`sessionheader/<stream>/v<N>`). */
export const sessionHeaderGenerationEventId = (streamKey: string, formatVersion: number): EventId =>
  uuidV5(`sessionheader/${streamKey}/v${formatVersion}`) as EventId;

/** The id of the header record added when a log stored header-only turns out normalised (`sessionheader/<stream>/normalised`). */
export const sessionHeaderNormalisedEventId = (streamKey: string): EventId =>
  uuidV5(`sessionheader/${streamKey}/normalised`) as EventId;

/** The id of a follower's `teamlog/import/revoked` record at `revision` of a session stream. */
export const importRevokedEventId = (streamKey: string, revision: number): EventId =>
  uuidV5(`import-revoked/${streamKey}/${revision}`) as EventId;

/** The id of a follower's `teamlog/import/superseded` record at `revision` of a session stream. */
export const importSupersededEventId = (streamKey: string, revision: number): EventId =>
  uuidV5(`import-superseded/${streamKey}/${revision}`) as EventId;

/**
 * The ids of a superseding generation's events: its seqs start again at 0 in the same stream, so
 * they are named by the generation too (`<stream>/v<N>`), apart from the superseded events' ids.
 */
export const supersedingEventIdsKey = (streamKey: string, formatVersion: number): string =>
  `${streamKey}/v${formatVersion}`;
