import { MessageId, SessionId } from '@teamlog/events';
import { SessionInbox } from './inbox-projection';
import { SessionFacts } from './session-facts';
import { TeamProjection } from './team-projection';

/** What changed since the views were last committed, so a view store writes only that. */
export interface PendingChanges {
  readonly sessions: Set<SessionId>;
  readonly teams: Set<SessionId>;
  readonly inboxEntries: Map<SessionId, Set<number>>;
  readonly inboxLists: Set<SessionId>;
  readonly held: Array<{ readonly sessionId: SessionId; readonly messageId: MessageId; readonly seq: number }>;
}

/**
 * Every view teamlog builds from `$all`: session facts, one Team per Lead stream, one inbox per
 * session. The fold is linear (it updates this object in place), like the domain folds it uses.
 */
export interface ProjectionState {
  readonly sessions: Map<SessionId, SessionFacts>;
  /** Keyed by the Lead's session id; a stream gets an entry once it holds any Team record. */
  readonly teams: Map<SessionId, TeamProjection>;
  readonly inboxes: Map<SessionId, SessionInbox>;
  readonly changes: PendingChanges;
}

export const emptyChanges = (): PendingChanges => ({
  sessions: new Set(),
  teams: new Set(),
  inboxEntries: new Map(),
  inboxLists: new Set(),
  held: [],
});

export const initialProjectionState = (): ProjectionState => ({
  sessions: new Map(),
  teams: new Map(),
  inboxes: new Map(),
  changes: emptyChanges(),
});

export const clearChanges = (state: ProjectionState): void => {
  state.changes.sessions.clear();
  state.changes.teams.clear();
  state.changes.inboxEntries.clear();
  state.changes.inboxLists.clear();
  state.changes.held.length = 0;
};
