import type { SessionId, TeamId } from '@teamlog/events';
import {
  type SessionInbox,
  type TeamView,
  type TeamlogViews,
  inheritedCut,
  leadName,
  ownEntryCount,
} from '@teamlog/projections';

/** A session as the inbox picker lists it. */
export interface SessionSummary {
  readonly id: SessionId;
  readonly status: string;
  /** The team it leads or is on the roster of, with its roster name. */
  readonly teamId?: TeamId;
  readonly name?: string;
  readonly eventCount: number;
  readonly inboxEntries: number;
  readonly pending: number;
}

export interface SessionFilter {
  readonly teamId?: TeamId;
  readonly withInbox?: boolean;
}

const rosterOf = (teams: readonly TeamView[]): Map<SessionId, { readonly teamId: TeamId; readonly name: string }> => {
  const roster = new Map<SessionId, { readonly teamId: TeamId; readonly name: string }>();
  for (const team of teams) {
    roster.set(team.lead.id, { teamId: team.teamId, name: leadName });
    team.members.forEach((member) => roster.set(member.id, { teamId: team.teamId, name: member.name }));
  }
  return roster;
};

/**
 * A session's own entries and how many of them wait, from the sizes the inbox fold keeps: a pending
 * entry is on one of the two lists, so this costs the waiting entries, not the history.
 */
const inboxCounts = (inbox: SessionInbox | undefined, cut: number): { entries: number; pending: number } => {
  if (inbox === undefined) return { entries: 0, pending: 0 };
  const { entries, pending } = inbox.state;
  let waiting = 0;
  for (const index of [...pending['next-turn'], ...pending['next-step']]) {
    const entry = entries[index];
    if (entry !== undefined && entry.status === 'pending' && entry.acceptedSeq >= cut) waiting += 1;
  }
  return { entries: ownEntryCount(entries, cut), pending: waiting };
};

export const readSessions = (views: TeamlogViews, filter: SessionFilter = {}): SessionSummary[] => {
  const roster = rosterOf(views.teams());
  return [...views.state.sessions.values()]
    .map((facts): SessionSummary => {
      const place = roster.get(facts.id);
      const count = inboxCounts(views.state.inboxes.get(facts.id), inheritedCut(facts));
      return {
        id: facts.id,
        status: facts.lifecycle.status,
        ...(place === undefined ? {} : { teamId: place.teamId, name: place.name }),
        eventCount: facts.eventCount,
        inboxEntries: count?.entries ?? 0,
        pending: count?.pending ?? 0,
      };
    })
    .filter((session) => filter.teamId === undefined || session.teamId === filter.teamId)
    .filter((session) => filter.withInbox !== true || session.inboxEntries > 0)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
};
