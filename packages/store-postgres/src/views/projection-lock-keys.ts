import { createHash } from 'node:crypto';

/** A signed 64-bit advisory lock key (what pg_advisory_lock takes) derived from a text. */
const keyOf = (text: string): string => createHash('sha256').update(text).digest().readBigInt64BE(0).toString();

/**
 * The lock a projection's leader holds for as long as it leads (a session-level advisory lock on
 * the connection it commits on). Advisory locks are per database, so each database has its own.
 */
export const projectionLeadKey = (projection: string): string => keyOf(`teamlog projection lead: ${projection}`);

/** The lock every commit of a projection's views takes for its transaction, so two commits never interleave. */
export const projectionCommitKey = (projection: string): string => keyOf(`teamlog projection commit: ${projection}`);
