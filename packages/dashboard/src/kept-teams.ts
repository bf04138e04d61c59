import { type SessionId, leadOf } from '@teamlog/events';
import { type ProjectionState, type TeamProjection, type TeamView, identityOf, teamView } from '@teamlog/projections';

/** What a team's view was built from: the Team fold's sizes and the versions of the sessions it reads. */
interface KeptTeam {
  readonly shape: string;
  /** The Lead, the members and the legacy messages' targets: whose facts and held messages the view reads. */
  readonly reads: readonly SessionId[];
  readonly versions: string;
  readonly view: TeamView;
}

/** The Team fold as far as its view reads it: it extends its records for every record of its own team. */
const shapeOf = (team: TeamProjection): string => {
  const { state } = team;
  return [
    identityOf(team),
    identityOf(state),
    team.records.length,
    team.mismatches.length,
    state.members.size,
    state.tasks.size,
    state.messages.size,
    state.failure === undefined ? '-' : identityOf(state.failure),
  ].join(':');
};

const readsOf = (team: TeamProjection): SessionId[] => {
  const reads = new Set<SessionId>([leadOf(team.state.teamId), ...team.state.members.keys()]);
  team.state.messages.forEach(({ message }) => reads.add(message.targetId));
  return [...reads];
};

/**
 * A session as a team's view reads it (lifecycle, team name, whether its log holds a message): its
 * facts change object when they are replaced and count an event for every event folded.
 */
const versionOf = (state: ProjectionState, id: SessionId): string => {
  const facts = state.sessions.get(id);
  const inbox = state.inboxes.get(id);
  return facts === undefined
    ? `-${inbox === undefined ? '' : identityOf(inbox)}`
    : `${identityOf(facts)}.${facts.eventCount}.${identityOf(facts.lifecycle)}.${inbox === undefined ? '' : identityOf(inbox)}`;
};

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Each team's view kept over the live views (docs/dashboard.md#as-of-views-and-the-cost-of-a-request):
 * built again only when its Team fold or one of the sessions it reads moved, so a send in one team
 * does not build the views of the others. Equals `readTeams(state)` (a property test holds it to that).
 */
export class KeptTeams {
  private teams = new Map<SessionId, KeptTeam>();

  read(state: ProjectionState): TeamView[] {
    const next = new Map<SessionId, KeptTeam>();
    const views = [...state.teams]
      .filter(([, team]) => team.state.hasRecords)
      .sort(([, a], [, b]) => compareText(a.state.teamId, b.state.teamId))
      .map(([lead, team]) => {
        const kept = this.teams.get(lead);
        const shape = shapeOf(team);
        const reads = kept !== undefined && kept.shape === shape ? kept.reads : readsOf(team);
        const versions = reads.map((id) => versionOf(state, id)).join(',');
        const same = kept !== undefined && kept.shape === shape && kept.versions === versions;
        const view = same ? kept.view : teamView(state, team);
        next.set(lead, { shape, reads, versions, view });
        return view;
      });
    this.teams = next;
    return views;
  }
}
