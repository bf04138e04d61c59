import { teamViewCommand } from '../team-view-command';
import { renderTasks } from '../text/tasks-text';
import { teamHeading } from '../text/team-text';

export const tasksCommand = teamViewCommand({
  name: 'tasks',
  summary: "Show each team's tasks with their latest revision, status, owner and blockers.",
  json: (team) => ({ tasks: team.tasks }),
  text: (team, style) => [teamHeading(team, style), ...renderTasks(team, style)],
});
