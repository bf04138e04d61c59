import type { StreamName } from './stream-name';

/** The copy cannot continue: the target disagrees with the source, or an append failed. */
export class MigrationFailed extends Error {
  override readonly name = 'MigrationFailed';
  constructor(
    readonly streamName: StreamName,
    readonly revision: bigint | undefined,
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(
      `migration of stream ${streamName}${revision === undefined ? '' : ` at revision ${revision}`}: ${detail}`,
      options,
    );
  }
}

/** Stopped by its AbortSignal; everything appended so far stays, and a re-run continues. */
export class MigrationInterrupted extends Error {
  override readonly name = 'MigrationInterrupted';
  constructor(readonly eventsCopied: number) {
    super(`migration interrupted after copying ${eventsCopied} event(s) in this run; run it again to continue`);
  }
}

export interface StreamMismatch {
  readonly streamName: StreamName;
  readonly detail: string;
}

export class MigrationVerificationFailed extends Error {
  override readonly name = 'MigrationVerificationFailed';
  constructor(readonly mismatches: readonly StreamMismatch[]) {
    const shown = mismatches.slice(0, 5).map((mismatch) => `${mismatch.streamName}: ${mismatch.detail}`);
    super(
      `migration verification failed for ${mismatches.length} stream(s): ${shown.join('; ')}${mismatches.length > shown.length ? '; ...' : ''}`,
    );
  }
}
