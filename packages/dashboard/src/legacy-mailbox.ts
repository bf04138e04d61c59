import { type JsonValue, type MessageId, type SessionId, type TeamId, leadOf } from '@teamlog/events';
import { type LegacyMessageView, type ProjectionState, type TeamView, leadName } from '@teamlog/projections';
import { contentText } from './conversation';
import { eventPath } from './event-document';

/** A message of the superseded mailbox with its team and the names of both ends. */
export interface LegacyMailboxRow extends LegacyMessageView {
  readonly teamId: TeamId;
  readonly targetName: string;
  /** The Lead-log event that queued it. */
  readonly eventUrl: string;
  /** The message's text, when the views' state is given. */
  readonly text?: string;
}

/** A mailbox message's text, from the Team state the views keep (the queued record's content). */
export const legacyMessageText =
  (state: ProjectionState) =>
  (teamId: TeamId, messageId: MessageId): string | undefined => {
    const entry = state.teams.get(leadOf(teamId))?.state.messages.get(messageId);
    return entry === undefined ? undefined : contentText(entry.message.content as unknown as JsonValue);
  };

export interface LegacyMailboxFilter {
  readonly teamId?: TeamId;
  readonly status?: LegacyMessageView['status'];
}

const namesOf = (team: TeamView): Map<SessionId, string> =>
  new Map<SessionId, string>([
    [team.lead.id, leadName],
    ...team.members.map((member) => [member.id, member.name] as const),
  ]);

/** Every team's legacy mailbox in Lead-log order: read-only, never delivered by teamlog. */
export const legacyMailbox = (
  teams: readonly TeamView[],
  filter: LegacyMailboxFilter = {},
  textOf?: (teamId: TeamId, messageId: MessageId) => string | undefined,
): LegacyMailboxRow[] =>
  teams
    .filter((team) => filter.teamId === undefined || team.teamId === filter.teamId)
    .flatMap((team) => {
      const names = namesOf(team);
      return team.legacyMessages.map((message) => {
        const text = textOf?.(team.teamId, message.id);
        return {
          ...message,
          teamId: team.teamId,
          targetName: names.get(message.targetId) ?? message.targetId,
          eventUrl: eventPath(team.lead.id, message.queuedSeq),
          ...(text === undefined ? {} : { text }),
        };
      });
    })
    .filter((row) => filter.status === undefined || row.status === filter.status);
