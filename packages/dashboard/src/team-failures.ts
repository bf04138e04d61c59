import type { TeamId } from '@teamlog/events';
import type { EventStore } from '@teamlog/store';
import type { TeamView } from '@teamlog/projections';
import { type EventDocument, type SeqBase, eventPath, readSessionEvent } from './event-document';

/** A team whose projection stopped on a Team rule (docs/rules.md#team-failure-mode), with the Lead-log record that broke it. */
export interface TeamFailureRow {
  readonly teamId: TeamId;
  readonly failure: NonNullable<TeamView['failure']>;
  /** Null only if the store no longer holds the record the views saw. */
  readonly record: EventDocument | null;
  readonly eventUrl: string;
}

export const readTeamFailures = async (
  store: EventStore,
  teams: readonly TeamView[],
  baseOf: SeqBase = () => 0,
): Promise<TeamFailureRow[]> => {
  const failed = teams.flatMap((team) => (team.failure === null ? [] : [{ team, failure: team.failure }]));
  return Promise.all(
    failed.map(async ({ team, failure }) => ({
      teamId: team.teamId,
      failure,
      record: (await readSessionEvent(store, team.lead.id, failure.seq, baseOf(team.lead.id))) ?? null,
      eventUrl: eventPath(team.lead.id, failure.seq),
    })),
  );
};
