import { SessionId, TeamId } from '@teamlog/events';
import { LegacyMessageView, TeamView, leadName } from '@teamlog/projections';
import { eventPath } from './event-document';

/** A message of the superseded mailbox with its team and the names of both ends. */
export interface LegacyMailboxRow extends LegacyMessageView {
  readonly teamId: TeamId;
  readonly targetName: string;
  /** The Lead-log event that queued it. */
  readonly eventUrl: string;
}

export interface LegacyMailboxFilter {
  readonly teamId?: TeamId;
  readonly status?: LegacyMessageView['status'];
}

const namesOf = (team: TeamView): Map<SessionId, string> =>
  new Map<SessionId, string>([[team.lead.id, leadName], ...team.members.map((member) => [member.id, member.name] as const)]);

/** Every team's legacy mailbox in Lead-log order: read-only, never delivered by teamlog. */
export const legacyMailbox = (teams: readonly TeamView[], filter: LegacyMailboxFilter = {}): LegacyMailboxRow[] =>
  teams
    .filter((team) => filter.teamId === undefined || team.teamId === filter.teamId)
    .flatMap((team) => {
      const names = namesOf(team);
      return team.legacyMessages.map((message) => ({
        ...message,
        teamId: team.teamId,
        targetName: names.get(message.targetId) ?? message.targetId,
        eventUrl: eventPath(team.lead.id, message.queuedSeq),
      }));
    })
    .filter((row) => filter.status === undefined || row.status === filter.status);
