import type { TeamView } from '@teamlog/projections';
import { badInput } from './cli-errors';

/** Every team, or the one `--team` names; an unknown team is bad input. */
export const selectTeams = (teams: readonly TeamView[], teamId: string | undefined): readonly TeamView[] => {
  if (teamId === undefined) return teams;
  const team = teams.find((candidate) => candidate.teamId === teamId);
  if (team === undefined)
    throw badInput(
      `no team "${teamId}" in the store (teams: ${teams.map((each) => each.teamId).join(', ') || 'none'})`,
    );
  return [team];
};
