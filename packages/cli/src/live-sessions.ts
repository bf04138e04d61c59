import { type SessionId, type TeamId, leadOf } from '@teamlog/events';
import { type TeamlogViews, teamOfNativeSession } from '@teamlog/projections';

/** A session teamlog runs itself, that an agent can act as (`teamlog mcp --session`). */
export interface LiveSession {
  readonly sessionId: SessionId;
  readonly role: 'lead' | 'member';
  readonly name: string;
  readonly teamId: TeamId;
  readonly teamName?: string;
  readonly status: string;
}

const roleOrder = { lead: 0, member: 1 } as const;

/**
 * The engine's own sessions that are not closed, a team's Lead first: historical sessions are
 * read-only, and a closed (killed, failed, ...) session refuses every write.
 */
export const liveSessions = (views: TeamlogViews, teamId?: string): LiveSession[] => {
  const found: LiveSession[] = [];
  for (const facts of views.state.sessions.values()) {
    const team = teamOfNativeSession(facts);
    if (team === undefined || facts.lifecycle.status === 'closed') continue;
    if (teamId !== undefined && team.teamId !== teamId) continue;
    const teamName = views.state.sessions.get(leadOf(team.teamId))?.teamName;
    found.push({
      sessionId: facts.id,
      role: team.role,
      name: team.name ?? facts.id,
      teamId: team.teamId,
      ...(teamName === undefined ? {} : { teamName }),
      status: facts.lifecycle.status,
    });
  }
  return found.sort((a, b) =>
    a.teamId === b.teamId
      ? roleOrder[a.role] - roleOrder[b.role] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
      : a.teamId < b.teamId
        ? -1
        : 1,
  );
};
