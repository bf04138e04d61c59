import { type Either, left, right } from 'fp-ts/Either';
import { NonEmptyString, type SessionId, type TeamId, type TeamMemberSnapshot, leadOf } from '@teamlog/events';
import { leadName } from '@teamlog/domain';
import { described } from './described-type';
import type { ToolFault } from './tool-errors';

/** How a model names a session: as `send_message` addresses a target. */
export const MemberAddress = described(NonEmptyString, 'A team member\'s name, a session id, or "lead" for the Lead.');

/** The session an address names on this team: "lead", a member name, or a session id of the Lead or a member. */
export const resolveMemberAddress = (
  address: string,
  teamId: TeamId,
  roster: readonly TeamMemberSnapshot[],
): Either<ToolFault, SessionId> => {
  const lead = leadOf(teamId);
  if (address === leadName || address === lead) return right(lead);
  const member = roster.find((entry) => entry.name === address) ?? roster.find((entry) => entry.id === address);
  return member === undefined ? left({ code: 'UnknownMember', address }) : right(member.id);
};

/** The name a session goes by on this team, for what a model reads; its id if it is on no roster. */
export const memberNameOf =
  (teamId: TeamId, roster: readonly TeamMemberSnapshot[]) =>
  (sessionId: SessionId): string =>
    sessionId === leadOf(teamId) ? leadName : (roster.find((entry) => entry.id === sessionId)?.name ?? sessionId);
