import { teamViewCommand } from '../team-view-command';
import { renderRoster } from '../text/roster-text';
import { teamHeading } from '../text/team-text';

export const rosterCommand = teamViewCommand({
  name: 'roster',
  summary: "Show each team's Lead and members (phase, status, provider, context), in order of first appearance.",
  json: (team) => ({ lead: team.lead, members: team.members }),
  text: (team, style) => [teamHeading(team, style), ...renderRoster(team, style)],
});
