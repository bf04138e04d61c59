import { left, right } from 'fp-ts/Either';
import type { CloseReason, SessionId, StreamEvent } from '@teamlog/events';
import type { Decider } from './decider';
import { SenderClosed } from './send-rejection';

/**
 * What a send needs of its sender's own stream: whether the session has closed, and why. Only
 * `teamlog/session/closed` moves it (closing is terminal), so a fold of it reads nothing else.
 */
export interface SenderClosure {
  readonly closed?: CloseReason;
}

export const initialSenderClosure: SenderClosure = {};

export const senderClosureEventType = 'teamlog/session/closed';

export const evolveSenderClosure = (state: SenderClosure, event: StreamEvent): SenderClosure => {
  if (state.closed !== undefined || event.type !== senderClosureEventType) return state;
  return { closed: event.catalog && event.type === senderClosureEventType ? event.data.reason : 'lost' };
};

/** May this session send? Asked by the send pipeline; the answer writes nothing. */
export interface OpenToSend {
  readonly type: 'open-to-send';
  readonly sessionId: SessionId;
}

/**
 * The sender lifecycle: a session sends while it is not closed. A closed session (killed,
 * cancelled, lost, failed) can still hold a handle in its host; what that handle sends is refused,
 * so no message is attributed to a session after its end.
 */
export const senderLifecycle: Decider<OpenToSend, never, SenderClosure, SenderClosed> = {
  decide: (command, { closed }) =>
    closed === undefined ? right([]) : left(new SenderClosed(command.sessionId, closed)),
  evolve: evolveSenderClosure,
  initialState: () => initialSenderClosure,
  reads: (type) => type === senderClosureEventType,
};
