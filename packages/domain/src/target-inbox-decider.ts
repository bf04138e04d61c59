import { type Either, left, right } from 'fp-ts/Either';
import type { EventOf, InboxList, RelayedMessage, SessionId, TeamId } from '@teamlog/events';
import type { Decider } from './decider';
import { type SendRejected, TargetClosed, TargetOutsideTeam, UnknownTarget } from './send-rejection';
import type { SessionStatus } from './session-lifecycle';
import { type SessionStreamState, evolveSessionStream, initialSessionStreamState } from './session-stream-state';

/** Admit one Team message into the target's inbox; the sender is in `message.source`. */
export interface AdmitTeamMessage {
  readonly type: 'admit';
  readonly teamId: TeamId;
  readonly target: SessionId;
  readonly message: RelayedMessage;
}

export type AdmissionEvent = EventOf<'teamlog/session/resumed'> | EventOf<'teamlog/inbox/accepted'>;

/** How the target will take the message, by its status (closed targets refuse). */
export type Admission =
  | { readonly kind: 'steer'; readonly list: 'next-step' }
  | { readonly kind: 'start-turn'; readonly list: 'next-turn' }
  | { readonly kind: 'cold-resume'; readonly list: 'next-turn' }
  | { readonly kind: 'await-start'; readonly list: 'next-turn' };

export const admissionFor = (status: Exclude<SessionStatus, 'closed'>): Admission => {
  switch (status) {
    case 'running':
      return { kind: 'steer', list: 'next-step' };
    case 'idle':
      return { kind: 'start-turn', list: 'next-turn' };
    case 'inactive':
      return { kind: 'cold-resume', list: 'next-turn' };
    case 'not-started':
      return { kind: 'await-start', list: 'next-turn' };
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
};

const accepted = (teamId: TeamId, list: InboxList, message: RelayedMessage): AdmissionEvent => ({
  type: 'teamlog/inbox/accepted',
  data: { teamId, list, message },
});

/**
 * The target inbox decides admission from what only the target's own stream knows: that it is a
 * teamlog session of this team, whether it is closed, and how it takes input now. Who may send to
 * whom (roster, self-sends, failed spawns) was decided by the route before (team-message-route.ts).
 * A message whose id the inbox already holds was accepted before (a re-decide after an ambiguous
 * append): nothing more to write.
 */
export const decideTargetInbox = (
  command: AdmitTeamMessage,
  state: SessionStreamState,
): Either<SendRejected, AdmissionEvent[]> => {
  const { lifecycle } = state;
  if (!lifecycle.native) return left(new UnknownTarget(command.target));
  if (lifecycle.teamId !== command.teamId) return left(new TargetOutsideTeam(command.target, command.teamId));
  if (state.inbox.byId.has(command.message.id)) return right([]);
  if (lifecycle.status === 'closed') return left(new TargetClosed(command.target, lifecycle.closeReason ?? 'lost'));
  const admission = admissionFor(lifecycle.status);
  const accept = accepted(command.teamId, admission.list, command.message);
  return right(
    admission.kind === 'cold-resume' ? [{ type: 'teamlog/session/resumed', data: { mode: 'cold' } }, accept] : [accept],
  );
};

/** The target inbox aggregate. */
export const targetInbox: Decider<AdmitTeamMessage, AdmissionEvent, SessionStreamState, SendRejected> = {
  decide: decideTargetInbox,
  evolve: evolveSessionStream,
  initialState: initialSessionStreamState,
};
