import type { MessageId, SessionId } from '@teamlog/events';
import type { SessionStatus } from './session-lifecycle';

/** Why a host report about a session's loop was refused. Nothing is written. */
export abstract class SessionLoopRejected extends Error {
  abstract override readonly name: string;
}

export class SessionNotFound extends SessionLoopRejected {
  override readonly name = 'SessionNotFound';
  constructor(readonly sessionId: SessionId) {
    super(`no teamlog session "${sessionId}"`);
  }
}

/** The report does not fit where the session is (e.g. a step outside a turn, a turn of a closed session). */
export class InvalidSessionTransition extends SessionLoopRejected {
  override readonly name = 'InvalidSessionTransition';
  constructor(
    readonly sessionId: SessionId,
    readonly command: string,
    readonly status: SessionStatus,
    readonly stepOpen: boolean,
  ) {
    super(`session "${sessionId}" cannot ${command} while ${status}${stepOpen ? ' inside a step' : ''}`);
  }
}

/**
 * A completed turn would strand steered messages: the end of a turn is a step boundary, so the
 * host runs one more step, which claims them.
 */
export class SteerInputPending extends SessionLoopRejected {
  override readonly name = 'SteerInputPending';
  constructor(
    readonly sessionId: SessionId,
    readonly messageIds: readonly MessageId[],
  ) {
    super(`session "${sessionId}" has ${messageIds.length} steered message(s) to claim before its turn can complete`);
  }
}
