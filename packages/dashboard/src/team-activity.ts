import type { TeamView, TeamlogViews } from '@teamlog/projections';

/** A team as `/api/teams` answers it: the view plus when any of its sessions last did something. */
export type TeamWithActivity = TeamView & { readonly lastActive: number | null };

/** The latest event time of the Lead's and the members' logs (null when none carried a time): the page opens on the most recently active team. */
export const withActivity = (views: TeamlogViews, team: TeamView): TeamWithActivity => {
  let lastActive: number | null = null;
  for (const id of [team.lead.id, ...team.members.map((member) => member.id)]) {
    const time = views.session(id)?.lastTime;
    if (time !== undefined && (lastActive === null || time > lastActive)) lastActive = time;
  }
  return { ...team, lastActive };
};
