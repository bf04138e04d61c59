import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import type { Admission } from '@teamlog/domain';

/**
 * Told to the host after an acceptance is durable, so it can act on it: a running target claims
 * the message at its next step by itself; an idle or cold-resumed target needs a turn; a target
 * that has not started claims it when it starts. Hosts in other processes see the same acceptance
 * in the store (subscribeToAll) instead.
 */
export interface AcceptedNotice {
  readonly teamId: TeamId;
  readonly target: SessionId;
  readonly sender: SessionId;
  readonly messageId: MessageId;
  readonly delivery: Admission['kind'];
}

export type AcceptedListener = (notice: AcceptedNotice) => void;
