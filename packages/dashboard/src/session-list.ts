import type { SessionId, TeamId } from '@teamlog/events';
import { type TeamView, type TeamlogViews, leadName } from '@teamlog/projections';

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

export const readSessions = (views: TeamlogViews, filter: SessionFilter = {}): SessionSummary[] => {
  const roster = rosterOf(views.teams());
  const counts = new Map<SessionId, { entries: number; pending: number }>();
  for (const entry of views.inbox()) {
    const count = counts.get(entry.sessionId) ?? { entries: 0, pending: 0 };
    count.entries += 1;
    if (entry.status === 'pending') count.pending += 1;
    counts.set(entry.sessionId, count);
  }
  return [...views.state.sessions.values()]
    .map((facts): SessionSummary => {
      const place = roster.get(facts.id);
      const count = counts.get(facts.id);
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
