import type { SessionId } from '@teamlog/events';
import { compareText } from './compare-text';
import type { ProjectionState } from './projection-state';
import type { RevokedFacts } from './session-facts';

/** A session whose import a follower revoked, as the audit and the dashboard list it. */
export interface RevokedSession extends RevokedFacts {
  readonly sessionId: SessionId;
}

/** Every revoked session, by id. */
export const revokedSessions = (state: ProjectionState): RevokedSession[] =>
  [...state.sessions.values()]
    .filter((facts) => facts.revoked !== undefined)
    .map((facts) => ({ sessionId: facts.id, ...(facts.revoked as RevokedFacts) }))
    .sort((a, b) => compareText(a.sessionId, b.sessionId));

const without = <V>(map: Map<SessionId, V>, gone: ReadonlySet<SessionId>): Map<SessionId, V> =>
  new Map([...map].filter(([id]) => !gone.has(id)));

/**
 * The views as the reads see them: a revoked session's facts, Team and inbox left out, as a
 * one-shot replay leaves out a file it rejects (docs/rules.md#import-revoked). The state itself
 * when nothing is revoked (the common case: no copy).
 */
export const visibleState = (state: ProjectionState): ProjectionState => {
  const gone = new Set(revokedSessions(state).map(({ sessionId }) => sessionId));
  if (gone.size === 0) return state;
  return {
    ...state,
    sessions: without(state.sessions, gone),
    teams: without(state.teams, gone),
    inboxes: without(state.inboxes, gone),
  };
};
