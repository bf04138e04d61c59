import { teamViewCommand } from '../team-view-command';
import { renderLegacyMailbox } from '../text/legacy-mailbox-text';
import { renderFailure, teamHeading } from '../text/team-text';

export const legacyCommand = teamViewCommand({
  name: 'legacy',
  summary:
    "Show the read-only legacy mailbox of historical Lead logs: every queued message, delivered or undelivered, and the team's failure.",
  json: (team) => ({ legacyMessages: team.legacyMessages, failure: team.failure }),
  text: (team, style) => [teamHeading(team, style), ...renderLegacyMailbox(team, style), ...renderFailure(team, style)],
});
