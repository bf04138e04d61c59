import { Either, left, right } from 'fp-ts/Either';
import { SessionId, TeamId, leadOf } from '@teamlog/events';
import { TeamSender } from './relayed-message';
import {
  MessageToSelf, SendRejected, SenderOutsideTeam, TargetClosed, TargetOutsideTeam, UnknownTarget,
} from './send-rejection';
import { TeamState } from './team-state';

/** The name the Lead goes by in Team messages; `send({ target: 'lead' })` addresses it. */
export const leadName = 'lead';

export type TeamTarget =
  | { readonly kind: 'lead'; readonly sessionId: SessionId; readonly name: string }
  | { readonly kind: 'member'; readonly sessionId: SessionId; readonly name: string }
  /** Not on the roster: never admitted; the caller only finds out which refusal explains it. */
  | { readonly kind: 'unlisted'; readonly address: string };

export interface TeamMessageRoute {
  readonly teamId: TeamId;
  readonly sender: TeamSender;
  readonly target: TeamTarget;
}

/** The Lead or an active member, as the roster names it. */
export const teamSender = (team: TeamState, sessionId: SessionId): Either<SenderOutsideTeam, TeamSender> => {
  if (sessionId === leadOf(team.teamId)) return right({ sessionId, name: leadName });
  const member = team.members.get(sessionId);
  return member !== undefined && member.snapshot.phase === 'active'
    ? right({ sessionId, name: member.snapshot.name })
    : left(new SenderOutsideTeam(sessionId, team.teamId));
};

/** Targets are addressed by member name or session id; "lead" (or the Lead's id) is the Lead. */
export const teamTarget = (team: TeamState, address: string): TeamTarget => {
  const lead = leadOf(team.teamId);
  if (address === leadName || address === lead) return { kind: 'lead', sessionId: lead, name: leadName };
  const id = team.memberNames.get(address) ?? (address as SessionId);
  const member = team.members.get(id);
  return member === undefined ? { kind: 'unlisted', address } : { kind: 'member', sessionId: id, name: member.snapshot.name };
};

/**
 * Resolve who sends to whom inside one team. A member whose spawn failed is refused as a failed
 * target; the target's own stream decides everything else (see target-inbox-decider.ts).
 */
export const routeTeamMessage = (team: TeamState, senderId: SessionId, address: string): Either<SendRejected, TeamMessageRoute> => {
  const sender = teamSender(team, senderId);
  if (sender._tag === 'Left') return sender;
  const target = teamTarget(team, address);
  if (target.kind === 'unlisted') return right({ teamId: team.teamId, sender: sender.right, target });
  if (target.sessionId === senderId) return left(new MessageToSelf(senderId));
  if (target.kind === 'member' && team.members.get(target.sessionId)?.snapshot.phase === 'failed') {
    return left(new TargetClosed(target.sessionId, 'failed'));
  }
  return right({ teamId: team.teamId, sender: sender.right, target });
};

/** An unlisted address is refused; which refusal depends on whether it names another team's session. */
export const refuseUnlisted = (teamId: TeamId, address: string, addressTeam: TeamId | undefined): SendRejected =>
  addressTeam === undefined ? new UnknownTarget(address) : new TargetOutsideTeam(address as SessionId, teamId);
