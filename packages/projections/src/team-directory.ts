import { type SessionId, type TeamId, leadOf } from '@teamlog/events';
import { compareText } from './compare-text';
import type { ProjectionState } from './projection-state';
import { teamOfNativeSession } from './session-facts';

/** Who belongs to a team, and under which name: the Lead, roster members and native sessions. */
export interface TeamDirectoryEntry {
  readonly teamId: TeamId;
  readonly leadId: SessionId;
  /** Session id to roster name; the Lead is listed too. */
  readonly names: ReadonlyMap<SessionId, string>;
}

/** The name a Team message from the Lead carries (docs/rules.md#send-attribution: `senderName` "lead"). */
export const leadName = 'lead';

export interface TeamDirectory {
  readonly team: (teamId: TeamId) => TeamDirectoryEntry | undefined;
  /** Teams the session leads or is a member of. */
  readonly teamsOf: (sessionId: SessionId) => readonly TeamDirectoryEntry[];
}

export const teamDirectory = (state: ProjectionState): TeamDirectory => {
  const names = new Map<TeamId, Map<SessionId, string>>();
  const entry = (teamId: TeamId): Map<SessionId, string> => {
    const known = names.get(teamId) ?? new Map<SessionId, string>([[leadOf(teamId), leadName]]);
    names.set(teamId, known);
    return known;
  };
  for (const team of state.teams.values()) {
    if (!team.state.hasRecords) continue;
    const roster = entry(team.state.teamId);
    team.state.members.forEach((member, id) => roster.set(id, member.snapshot.name));
  }
  for (const facts of state.sessions.values()) {
    const native = teamOfNativeSession(facts);
    if (native === undefined) continue;
    const roster = entry(native.teamId);
    roster.set(facts.id, native.name ?? roster.get(facts.id) ?? leadName);
  }
  // In team id order: the views' maps keep the order events were folded in, which differs between a
  // fold and views loaded from a view store, and the audit must not depend on it.
  const entries = new Map<TeamId, TeamDirectoryEntry>(
    [...names]
      .sort(([a], [b]) => compareText(a, b))
      .map(([teamId, roster]) => [teamId, { teamId, leadId: leadOf(teamId), names: roster }]),
  );
  const bySession = new Map<SessionId, TeamDirectoryEntry[]>();
  for (const team of entries.values()) {
    for (const id of team.names.keys()) bySession.set(id, [...(bySession.get(id) ?? []), team]);
  }
  return { team: (teamId) => entries.get(teamId), teamsOf: (sessionId) => bySession.get(sessionId) ?? [] };
};
