import { type Either, left, right } from 'fp-ts/Either';
import { type SessionId, type TeamId, leadOf } from '@teamlog/events';
import type { SendRejection } from './inbox';
import type { TeamSender } from './relayed-message';
import { type SenderClosure, senderLifecycle } from './session';
import { type TeamState, leadName } from './team';

export type TeamTarget =
  | { readonly kind: 'lead'; readonly sessionId: SessionId; readonly name: string }
  | { readonly kind: 'member'; readonly sessionId: SessionId; readonly name: string }
  /** Not on the roster: never admitted; the caller only finds out which refusal explains it. */
  | { readonly kind: 'unlisted'; readonly address: string };

/**
 * Everything a send needs after routing: who sends (by the roster's name), and the target with
 * the path its inbox is reached by (the Lead's own steer path, or the host's member adapter).
 */
export interface TeamMessageRoute {
  readonly teamId: TeamId;
  readonly sender: TeamSender;
  readonly target: TeamTarget;
}

/** The Lead or an active member, as the roster names it. */
export const teamSender = (team: TeamState, sessionId: SessionId): Either<SendRejection, TeamSender> => {
  if (sessionId === leadOf(team.teamId)) return right({ sessionId, name: leadName });
  const member = team.members.get(sessionId);
  return member !== undefined && member.snapshot.phase === 'active'
    ? right({ sessionId, name: member.snapshot.name })
    : left({ code: 'SenderOutsideTeam', sender: sessionId, teamId: team.teamId });
};

/** Targets are addressed by member name or session id; "lead" (or the Lead's id) is the Lead. */
export const teamTarget = (team: TeamState, address: string): TeamTarget => {
  const lead = leadOf(team.teamId);
  if (address === leadName || address === lead) return { kind: 'lead', sessionId: lead, name: leadName };
  const id = team.memberNames.get(address) ?? (address as SessionId);
  const member = team.members.get(id);
  return member === undefined
    ? { kind: 'unlisted', address }
    : { kind: 'member', sessionId: id, name: member.snapshot.name };
};

/**
 * Route a send inside one team, from what the team's roster and the sender's own lifecycle say:
 * the only place that decides a closed sender, a sender outside the team, the sender's name, a
 * message to self and a target whose spawn failed. The target's own stream decides the rest
 * (inbox.ts); an unlisted address is explained by `refuseUnlisted`.
 */
export const routeTeamMessage = (
  team: TeamState,
  senderClosure: SenderClosure,
  senderId: SessionId,
  address: string,
): Either<SendRejection, TeamMessageRoute> => {
  const open = senderLifecycle.decide({ type: 'open-to-send', sessionId: senderId }, senderClosure);
  if (open._tag === 'Left') return open;
  const sender = teamSender(team, senderId);
  if (sender._tag === 'Left') return sender;
  const target = teamTarget(team, address);
  if (target.kind === 'unlisted') return right({ teamId: team.teamId, sender: sender.right, target });
  if (target.sessionId === senderId) return left({ code: 'MessageToSelf', sessionId: senderId });
  if (target.kind === 'member' && team.members.get(target.sessionId)?.snapshot.phase === 'failed') {
    return left({ code: 'TargetClosed', target: target.sessionId, reason: 'failed' });
  }
  return right({ teamId: team.teamId, sender: sender.right, target });
};

/** An unlisted address is refused; which refusal depends on whether it names another team's session. */
export const refuseUnlisted = (teamId: TeamId, address: string, addressTeam: TeamId | undefined): SendRejection =>
  addressTeam === undefined
    ? { code: 'UnknownTarget', target: address }
    : { code: 'TargetOutsideTeam', target: address as SessionId, teamId };
