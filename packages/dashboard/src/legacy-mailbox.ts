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

/** The most rows one `/api/legacy-mailbox` answer holds, and the page it gives without a limit. */
export const maxLegacyPage = 1000;
export const defaultLegacyPage = 200;

export interface LegacyMailboxPage {
  readonly messages: LegacyMailboxRow[];
  /** The rows the filter matches in all. */
  readonly total: number;
  /** Where the next page starts, when there is one. */
  readonly nextOffset?: number;
}

/**
 * Every team's legacy mailbox in Lead-log order, `limit` rows from `offset` (default: all):
 * read-only, never delivered by teamlog. Rows are built only for the page; the others are only
 * counted.
 */
export const legacyMailbox = (
  teams: readonly TeamView[],
  filter: LegacyMailboxFilter = {},
  textOf?: (teamId: TeamId, messageId: MessageId) => string | undefined,
  page: { readonly offset?: number; readonly limit?: number } = {},
): LegacyMailboxPage => {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? Number.POSITIVE_INFINITY;
  const messages: LegacyMailboxRow[] = [];
  let total = 0;
  for (const team of teams) {
    if (filter.teamId !== undefined && team.teamId !== filter.teamId) continue;
    let names: Map<SessionId, string> | undefined;
    const row = (message: LegacyMessageView): LegacyMailboxRow => {
      names ??= namesOf(team);
      const text = textOf?.(team.teamId, message.id);
      return {
        ...message,
        teamId: team.teamId,
        targetName: names.get(message.targetId) ?? message.targetId,
        eventUrl: eventPath(team.lead.id, message.queuedSeq),
        ...(text === undefined ? {} : { text }),
      };
    };
    const all = team.legacyMessages;
    if (filter.status === undefined) {
      // Every message matches: the page is an index range, so a page costs its rows, not the mailbox.
      const to = Math.min(all.length, Math.max(0, offset - total) + Math.max(0, limit - messages.length));
      for (let index = Math.max(0, offset - total); index < to; index += 1)
        messages.push(row(all[index] as LegacyMessageView));
      total += all.length;
      continue;
    }
    for (const message of all) {
      if (message.status !== filter.status) continue;
      total += 1;
      if (total <= offset || messages.length >= limit) continue;
      messages.push(row(message));
    }
  }
  const next = offset + messages.length;
  return { messages, total, ...(next < total ? { nextOffset: next } : {}) };
};
