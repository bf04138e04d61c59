import type { MessageId, SessionId } from '@teamlog/events';
import { ChangeTrackingMap } from './change-tracking-map';
import { type HeldMessages, InMemoryHeldMessages } from './held-messages';
import { type SessionInbox, initialSessionInbox } from './inbox-projection';
import type { EraRules } from './era-rules';
import type { SessionFacts } from './session-facts';
import type { TeamProjection } from './team-projection';

/** What changed since the views were last committed, so a view store writes only that. */
export interface PendingChanges {
  /**
   * Sessions a later generation superseded in this batch (docs/rules.md#import-superseded): a
   * commit drops every row of theirs (Team, inbox entries and lists, held ids) before it writes the
   * batch's changes, so no row of the superseded generation outlives it.
   */
  readonly resets: Set<SessionId>;
  readonly sessions: Set<SessionId>;
  readonly teams: Set<SessionId>;
  /** Per changed team, how many record facts and mismatches it had at the last commit (later ones are new). */
  readonly teamFactsCommitted: Map<SessionId, { readonly records: number; readonly mismatches: number }>;
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
  /** Where a session's held message ids live (in memory, or in the view store's file). */
  readonly heldMessagesOf: (sessionId: SessionId) => HeldMessages;
  /**
   * Whether a Team's members, tasks and messages record which keys changed (ChangeTrackingMap), so
   * a view store writes only those rows. Views kept only in memory write no rows: their maps are
   * plain, and a legacy mailbox of hundreds of thousands of messages keeps no stamp per message.
   */
  readonly tracksTeamChanges: boolean;
  /**
   * Whether an inbox fold records the entries and held ids it changed (`changes.inboxEntries`,
   * `inboxLists`, `held`), which a view store's commit writes. Views kept only in memory write
   * none: their inbox folds record nothing, and make no change object per inbox event.
   */
  readonly recordsInboxChanges: boolean;
  /**
   * Whether every folded event records its session in `changes.sessions`, which a view store's
   * commit writes. Views kept only in memory write none, so their fold does not add to the set per
   * event (a session's facts set anew, which is rare, still records it).
   */
  readonly recordsSessionChanges: boolean;
  /**
   * Whether a legacy message keeps its content (the dashboard shows it). The views of a one-shot
   * replay are read once, for a document that does not print it: their messages keep none.
   */
  readonly keepsLegacyContent: boolean;
  /**
   * Set for views read once: a Team record's fact is kept only where the era audit could find
   * against it under these rules (era-rules.ts, `mayBreakRecordEra`); nothing else reads the facts
   * there. Absent: every fact is kept (the dashboard's statistics and a view store read them).
   */
  readonly recordFactsFor?: EraRules;
  /**
   * Whether the views are read once (a one-shot replay): no read keeps a view object to tell by its
   * identity whether it changed, so a session's lifecycle is updated in place.
   */
  readonly readOnce: boolean;
}

export const emptyChanges = (): PendingChanges => ({
  resets: new Set(),
  sessions: new Set(),
  teams: new Set(),
  teamFactsCommitted: new Map(),
  inboxEntries: new Map(),
  inboxLists: new Set(),
  held: [],
});

/** How the views are kept: by a view store (the defaults), only in memory, or for one read. */
export interface ProjectionStateOptions {
  /** See ProjectionState.tracksTeamChanges (default true). */
  readonly tracksTeamChanges?: boolean;
  /** See ProjectionState.recordsInboxChanges (default true). */
  readonly recordsInboxChanges?: boolean;
  /** See ProjectionState.recordsSessionChanges (default true). */
  readonly recordsSessionChanges?: boolean;
  /** See ProjectionState.keepsLegacyContent (default true). */
  readonly keepsLegacyContent?: boolean;
  /** See ProjectionState.recordFactsFor (default absent). */
  readonly recordFactsFor?: EraRules;
  /** See ProjectionState.readOnce (default false). */
  readonly readOnce?: boolean;
}

export const initialProjectionState = (
  heldMessagesOf: (sessionId: SessionId) => HeldMessages = () => new InMemoryHeldMessages(),
  options: ProjectionStateOptions = {},
): ProjectionState => ({
  sessions: new Map(),
  teams: new Map(),
  inboxes: new Map(),
  changes: emptyChanges(),
  heldMessagesOf,
  tracksTeamChanges: options.tracksTeamChanges ?? true,
  recordsInboxChanges: options.recordsInboxChanges ?? true,
  recordsSessionChanges: options.recordsSessionChanges ?? true,
  keepsLegacyContent: options.keepsLegacyContent ?? true,
  readOnce: options.readOnce ?? false,
  ...(options.recordFactsFor === undefined ? {} : { recordFactsFor: options.recordFactsFor }),
});

/** Views kept only in this process (InMemoryViewStore): no Team map tracks its changes, no inbox fold records them. */
export const initialInMemoryProjectionState = (): ProjectionState =>
  initialProjectionState(undefined, {
    tracksTeamChanges: false,
    recordsInboxChanges: false,
    recordsSessionChanges: false,
  });

/**
 * Views kept in memory for one read, a one-shot replay's, audited under `rules`: no change
 * tracking, no legacy message content, no Team record fact the era audit cannot find against, a
 * session lifecycle updated in place.
 */
export const initialOneShotProjectionState = (rules: EraRules): ProjectionState =>
  initialProjectionState(undefined, {
    tracksTeamChanges: false,
    recordsInboxChanges: false,
    recordsSessionChanges: false,
    keepsLegacyContent: false,
    recordFactsFor: rules,
    readOnce: true,
  });

/** The inbox of a session, created (empty) the first time it is needed. */
export const inboxOf = (state: ProjectionState, sessionId: SessionId): SessionInbox => {
  const existing = state.inboxes.get(sessionId);
  if (existing !== undefined) return existing;
  const inbox = initialSessionInbox(state.heldMessagesOf(sessionId));
  state.inboxes.set(sessionId, inbox);
  return inbox;
};

/** Whether a session's log holds a message id (its inbox may not have been created yet). */
export const holdsMessage = (state: ProjectionState, sessionId: SessionId, messageId: MessageId): boolean =>
  (state.inboxes.get(sessionId)?.held ?? state.heldMessagesOf(sessionId)).has(messageId);

const clearTeamChanges = (team: TeamProjection | undefined): void => {
  for (const map of [team?.state.members, team?.state.tasks, team?.state.messages]) {
    if (map instanceof ChangeTrackingMap) map.clearChanges();
  }
};

/**
 * After a commit that wrote nothing to a file (views kept in memory): forget what changed, but keep
 * the ids held since, which a file-backed held set (views seeded from SQLite) has nowhere else.
 */
export const clearChangesInMemory = (state: ProjectionState): void => {
  state.changes.resets.clear();
  state.changes.sessions.clear();
  state.changes.teams.forEach((id) => clearTeamChanges(state.teams.get(id)));
  state.changes.teams.clear();
  state.changes.teamFactsCommitted.clear();
  state.changes.inboxEntries.clear();
  state.changes.inboxLists.clear();
  state.changes.held.length = 0;
};

/** After a commit that wrote the changes (and the held ids) to the file. */
export const clearChanges = (state: ProjectionState): void => {
  new Set(state.changes.held.map(({ sessionId }) => sessionId)).forEach((id) =>
    state.inboxes.get(id)?.held.committed(),
  );
  clearChangesInMemory(state);
};
