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

const describeMigrationFault = (fault: MigrationFault): string => {
  switch (fault.code) {
    case 'MigrationFailed':
      return `migration of stream ${fault.streamName}${fault.revision === undefined ? '' : ` at revision ${fault.revision}`}: ${fault.detail}`;
    case 'MigrationInterrupted':
      return `migration interrupted after copying ${fault.eventsCopied} event(s) in this run; run it again to continue`;
    case 'MigrationVerificationFailed': {
      const { mismatches } = fault;
      const shown = mismatches.slice(0, 5).map((mismatch) => `${mismatch.streamName}: ${mismatch.detail}`);
      return `migration verification failed for ${mismatches.length} stream(s): ${shown.join('; ')}${mismatches.length > shown.length ? '; ...' : ''}`;
    }
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
};

export class MigrationError<F extends MigrationFault = MigrationFault> extends Error {
  override readonly name = 'MigrationError';
  readonly code: F['code'];
  constructor(readonly fault: F) {
    super(describeMigrationFault(fault), 'cause' in fault ? { cause: fault.cause } : undefined);
    this.code = fault.code;
  }
}

/** Narrow an unknown error to a MigrationError, of the given codes when any are named. */
export const isMigrationError = <C extends MigrationErrorCode>(
  error: unknown,
  ...codes: readonly C[]
): error is MigrationError<Extract<MigrationFault, { readonly code: C }>> =>
  error instanceof MigrationError && (codes.length === 0 || (codes as readonly string[]).includes(error.code));

/** The copy cannot continue at this stream and revision. */
export const migrationFailed = (
  streamName: StreamName,
  revision: bigint | undefined,
  detail: string,
  options?: { readonly cause: unknown },
): MigrationError => new MigrationError({ code: 'MigrationFailed', streamName, revision, detail, ...options });
