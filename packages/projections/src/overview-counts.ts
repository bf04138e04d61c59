import type { ProjectionState } from './projection-state';
import { inheritedCut } from './session-facts';

/** The dashboard's headline counts (`/api/overview`). */
export interface OverviewCounts {
  readonly sessions: number;
  readonly teams: number;
  readonly inboxEntries: number;
  readonly auditFindings: number;
  readonly legacyMessages: number;
  readonly undeliveredLegacyMessages: number;
  readonly failedTeams: number;
}

/**
 * How many entries are the session's own: those before `cut` (a fork's inherited ones) are its
 * parent's; entries are in seq order, so a binary search finds them.
 */
export const ownEntryCount = (entries: ReadonlyArray<{ readonly acceptedSeq: number }>, cut: number): number => {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle]?.acceptedSeq ?? cut) < cut) low = middle + 1;
    else high = middle;
  }
  return entries.length - low;
};

/**
 * The overview from the sizes the folds keep (sessions, teams, inbox entries, legacy messages),
 * without building any view: its cost grows with the sessions, teams and legacy-era messages, not
 * with the events. Only the audit needs a whole read, so its count is given by the caller (who
 * reads the audit once per checkpoint).
 */
export const readOverviewCounts = (state: ProjectionState, auditFindings: number): OverviewCounts => {
  let inboxEntries = 0;
  for (const [id, inbox] of state.inboxes) {
    const facts = state.sessions.get(id);
    inboxEntries += ownEntryCount(inbox.state.entries, facts === undefined ? 0 : inheritedCut(facts));
  }
  let teams = 0;
  let legacyMessages = 0;
  let undeliveredLegacyMessages = 0;
  let failedTeams = 0;
  for (const team of state.teams.values()) {
    if (!team.state.hasRecords) continue;
    teams += 1;
    if (team.state.failure !== undefined) failedTeams += 1;
    legacyMessages += team.state.messages.size;
    for (const entry of team.state.messages.values())
      if (entry.deliveredSeq === undefined) undeliveredLegacyMessages += 1;
  }
  return {
    sessions: state.sessions.size,
    teams,
    inboxEntries,
    auditFindings,
    legacyMessages,
    undeliveredLegacyMessages,
    failedTeams,
  };
};
