import { CloseReason } from '@teamlog/events';
import { LifecycleEvent } from './session-lifecycle';

/**
 * What a send needs of its sender's own stream: whether the session has closed, and why. Only
 * `teamlog/session/closed` moves it (closing is terminal), so a fold of it reads nothing else.
 */
export interface SenderClosure {
  readonly closed?: CloseReason;
}

export const initialSenderClosure: SenderClosure = {};

export const senderClosureEventType = 'teamlog/session/closed';

export const evolveSenderClosure = (state: SenderClosure, event: LifecycleEvent): SenderClosure => {
  if (state.closed !== undefined || event.type !== senderClosureEventType) return state;
  const reason = typeof event.data === 'object' && event.data !== null ? (event.data as { reason?: unknown }).reason : undefined;
  return { closed: (typeof reason === 'string' ? reason : 'lost') as CloseReason };
};
