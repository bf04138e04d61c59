import type { DecodeError, SessionId, TeamId } from '@teamlog/events';
import type { StreamName } from '@teamlog/store';

/* Errors at the TeamLog surface. Refusals decided by the domain (SendRejected, SessionLoopRejected,
   TeamCommandRejected) are re-exported beside these. */

/** The caller's AbortSignal fired before the acceptance was appended: nothing was written. */
export class SendAborted extends Error {
  override readonly name = 'SendAborted';
  constructor(override readonly cause?: unknown) {
    super('the send was aborted before it was accepted; nothing was written');
  }
}

/** The TeamLog was disposed; in-flight operations finished, new ones are refused. */
export class TeamLogDisposed extends Error {
  override readonly name = 'TeamLogDisposed';
  constructor(readonly operation: string) {
    super(`the TeamLog is disposed; ${operation} was refused`);
  }
}

/** A send request that is not `{ target, message, signal? }` with a non-empty message. */
export class InvalidSendRequest extends Error {
  override readonly name = 'InvalidSendRequest';
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`send request ${path}: ${detail}`);
  }
}

/** The mailbox era's records are decoded and projected, never written. */
export class LegacyMailboxWriteRefused extends Error {
  override readonly name = 'LegacyMailboxWriteRefused';
  constructor(readonly eventType: string) {
    super(`teamlog never writes ${eventType}: the Team mailbox is superseded by the target inbox`);
  }
}

/** An event teamlog was about to write does not match its catalog codec (or is not in the catalog). */
export class InvalidEventRefused extends Error {
  override readonly name = 'InvalidEventRefused';
  constructor(
    readonly eventType: string,
    readonly problem: DecodeError | string,
  ) {
    super(`refused to write ${eventType}: ${typeof problem === 'string' ? problem : problem.message}`);
  }
}

/** An event already in a stream does not decode: the stream is damaged, name where. */
export class CorruptStreamEvent extends Error {
  override readonly name = 'CorruptStreamEvent';
  constructor(
    readonly streamName: StreamName,
    readonly revision: bigint,
    readonly problem: DecodeError,
  ) {
    super(`stream ${streamName} revision ${revision}: ${problem.message}`);
  }
}

/** Optimistic concurrency lost too many times in a row to other writers of one stream. */
export class ConcurrencyExhausted extends Error {
  override readonly name = 'ConcurrencyExhausted';
  constructor(
    readonly streamName: StreamName,
    readonly attempts: number,
  ) {
    super(`stream ${streamName}: gave up after ${attempts} conflicting appends`);
  }
}

/** A member's own stream could not be created; the roster records the member as failed. */
export class MemberSpawnFailed extends Error {
  override readonly name = 'MemberSpawnFailed';
  constructor(
    readonly memberName: string,
    readonly sessionId: SessionId,
    override readonly cause: unknown,
  ) {
    super(
      `member "${memberName}" (${sessionId}) failed to spawn: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/** No team with this id: its Lead stream does not start with a Lead's `teamlog/session/created`. */
export class TeamNotFound extends Error {
  override readonly name = 'TeamNotFound';
  constructor(readonly teamId: TeamId) {
    super(`no teamlog team "${teamId}"`);
  }
}

/** A steer path was asked for an edge it does not authorise (wrong team, wrong direction). */
export class UnauthorisedEdge extends Error {
  override readonly name = 'UnauthorisedEdge';
  constructor(detail: string) {
    super(detail);
  }
}
