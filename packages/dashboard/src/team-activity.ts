import type { TeamView, TeamlogViews } from '@teamlog/projections';

/**
 * A team as `/api/teams` answers it: the view plus when any of its sessions last did something.
 * Its legacy mailbox is only counted: a Lead log can hold any number of mailbox records, and
 * `/api/legacy-mailbox` pages them. Its task board comes only with `teamId`: the list of every
 * team stays the size of the rosters, whatever the boards hold.
 */
export type TeamWithActivity = Omit<TeamView, 'legacyMessages' | 'tasks'> & {
  readonly lastActive: number | null;
  readonly legacyMessageCount: number;
  /** The task board: only when one team is asked for (the list of every team only counts them). */
  readonly tasks?: TeamView['tasks'];
  readonly taskCount: number;
};

/** The latest event time of the Lead's and the members' logs (null when none carried a time): the page opens on the most recently active team. */
export const withActivity = (views: TeamlogViews, team: TeamView, withTasks: boolean): TeamWithActivity => {
  let lastActive: number | null = null;
  for (const id of [team.lead.id, ...team.members.map((member) => member.id)]) {
    const time = views.session(id)?.lastTime;
    if (time !== undefined && (lastActive === null || time > lastActive)) lastActive = time;
  }
  const { legacyMessages, tasks, ...rest } = team;
  return {
    ...rest,
    lastActive,
    legacyMessageCount: legacyMessages.length,
    taskCount: tasks.length,
    ...(withTasks ? { tasks } : {}),
  };
};
