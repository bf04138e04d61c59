import { RevocationReason } from '@teamlog/events';
import { isStoreError } from '@teamlog/store';
import { type RejectionReason, SessionLogRejected } from './session-log-errors';

/** Why a file was not imported, as an import result carries it. */
export interface ImportRejection {
  readonly reason: RejectionReason;
  readonly message: string;
  readonly line?: number;
  readonly path?: string;
}

/**
 * A file changed between the reads of one import (its header, or a chunk, differs from the
 * validated read): not a verdict on the file, which is read again (docs/rules.md#import-revoked).
 */
export const fileChangedDuringImport = (file: string, how: string): SessionLogRejected =>
  new SessionLogRejected('unreadable', file, `the file changed while it was imported (${how}); nothing was written`, {
    name: 'FileChangedDuringImport',
  });

export const isFileChangedDuringImport = (error: unknown): boolean =>
  error instanceof SessionLogRejected && error.name === 'FileChangedDuringImport';

export const isStoreRace = (error: unknown): boolean => isStoreError(error, 'WrongExpectedVersion', 'DuplicateEventId');

/** Whatever an import of `file` threw, as the one-line rejection its result carries. */
export const rejectionOf = (file: string, error: unknown): ImportRejection => {
  if (error instanceof SessionLogRejected) {
    return {
      reason: error.reason,
      message: error.message,
      ...(error.line === undefined ? {} : { line: error.line }),
      ...(error.path === undefined ? {} : { path: error.path }),
    };
  }
  if (isStoreRace(error))
    return {
      reason: 'store-conflict',
      message: `${file}: another writer kept changing the session stream: ${(error as Error).message}`,
    };
  if (isStoreError(error, 'PayloadsNotKept')) {
    return {
      reason: 'prefix-not-kept',
      message: `${file}: the session is already in the store, which keeps no events to compare it with (${error.message}); nothing was written`,
    };
  }
  return { reason: 'unreadable', message: `${file}: ${error instanceof Error ? error.message : String(error)}` };
};

/**
 * What a rejection says about a file. `verdict`: about the file's own bytes, so a one-shot replay
 * of the same bytes refuses it the same way, and a file that only grows keeps it (damaged history
 * stays damaged). `circumstance`: about this moment or this store (the stored prefix differs,
 * another writer, an I/O error), which may pass. `not-yet`: nothing to judge (an empty file, or a
 * first line that is not whole or not a header: a transcript beside the logs, or a header still
 * being written).
 */
export type RejectionKind = 'verdict' | 'circumstance' | 'not-yet';

export const kindOfRejection = (reason: RejectionReason): RejectionKind => {
  switch (reason) {
    case 'not-a-session-log':
      return 'not-yet';
    case 'newer-format-version':
    case 'invalid-header':
    case 'damaged-history':
    case 'invalid-event':
    case 'corrupt-frame':
    case 'over-limit':
      return 'verdict';
    case 'unreadable':
    case 'prefix-mismatch':
    case 'prefix-not-kept':
    case 'store-conflict':
      return 'circumstance';
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
};

/** The reason a revocation records, for a verdict (undefined for anything else). */
export const revocationReasonOf = (reason: RejectionReason): RevocationReason | undefined =>
  kindOfRejection(reason) === 'verdict' && RevocationReason.is(reason) ? reason : undefined;

/**
 * The fate of a file one look of a follower could not import. `wait`: look again when it changes.
 * `refuse`: one warning, nothing written. `revoke`: a verdict on a file the store already holds a
 * part of: a one-shot replay of the file writes nothing, so the follower records that the part it
 * imported is revoked (`teamlog/import/revoked`) instead of leaving the views to differ.
 */
export type FollowedFileFate =
  | { readonly kind: 'wait' }
  | { readonly kind: 'refuse' }
  | { readonly kind: 'revoke'; readonly reason: RevocationReason };

export const followedFileFate = (rejection: ImportRejection, holdsPartOfIt: boolean): FollowedFileFate => {
  const kind = kindOfRejection(rejection.reason);
  if (kind === 'not-yet') return { kind: 'wait' };
  const reason = revocationReasonOf(rejection.reason);
  return holdsPartOfIt && reason !== undefined ? { kind: 'revoke', reason } : { kind: 'refuse' };
};
