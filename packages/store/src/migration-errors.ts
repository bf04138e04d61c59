import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';
import type { StreamName } from './stream-name';

export interface StreamMismatch {
  readonly streamName: StreamName;
  readonly detail: string;
}

/* The one error of a store migration: a MigrationError carries a fault whose `code` says how it stopped. */

export type MigrationFault =
  /** The copy cannot continue: the target disagrees with the source, or an append failed. */
  | {
      readonly code: 'MigrationFailed';
      readonly streamName: StreamName;
      readonly revision: bigint | undefined;
      readonly detail: string;
      readonly cause?: unknown;
    }
  /** Stopped by its AbortSignal; everything appended so far stays, and a re-run continues. */
  | { readonly code: 'MigrationInterrupted'; readonly eventsCopied: number }
  | { readonly code: 'MigrationVerificationFailed'; readonly mismatches: readonly StreamMismatch[] };

export type MigrationErrorCode = MigrationFault['code'];

const migrationMessages: MessageTable<MigrationFault> = {
  MigrationFailed: ({ streamName, revision, detail }) =>
    `migration of stream ${streamName}${revision === undefined ? '' : ` at revision ${revision}`}: ${detail}`,
  MigrationInterrupted: ({ eventsCopied }) =>
    `migration interrupted after copying ${eventsCopied} event(s) in this run; run it again to continue`,
  MigrationVerificationFailed: ({ mismatches }) => {
    const shown = mismatches.slice(0, 5).map((mismatch) => `${mismatch.streamName}: ${mismatch.detail}`);
    return `migration verification failed for ${mismatches.length} stream(s): ${shown.join('; ')}${mismatches.length > shown.length ? '; ...' : ''}`;
  },
};

const describeMigrationFault = describeFault(migrationMessages);

export class MigrationError<F extends MigrationFault = MigrationFault> extends CodedError<F> {
  override readonly name = 'MigrationError';
  constructor(fault: F) {
    super(fault, describeMigrationFault(fault));
  }
}

/** Narrow an unknown error to a MigrationError, of the given codes when any are named. */
export const isMigrationError = codedErrorGuard<MigrationFault, MigrationError>(MigrationError);

/** The copy cannot continue at this stream and revision. */
export const migrationFailed = (
  streamName: StreamName,
  revision: bigint | undefined,
  detail: string,
  options?: { readonly cause: unknown },
): MigrationError => new MigrationError({ code: 'MigrationFailed', streamName, revision, detail, ...options });
