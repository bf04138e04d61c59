import type { TeamJson } from '../replay-document';
import { renderLegacyMailbox } from './legacy-mailbox-text';
import { renderRoster } from './roster-text';
import { renderTasks } from './tasks-text';
import type { TextStyle } from './text-style';

export const renderFailure = (team: TeamJson, style: TextStyle, indent = '  '): string[] =>
  team.failure === null
    ? []
    : [
        `${indent}${style.alert(`Failure at seq ${team.failure.seq} (${team.failure.type}): ${team.failure.reason}`)}`,
        `${indent}  later team records of this log are ignored`,
      ];

/** `Team <id>`: the heading every per-team view starts with. */
export const teamHeading = (team: TeamJson, style: TextStyle): string =>
  `${style.heading(`Team ${team.teamId}`)}${team.lead === undefined ? '' : ` (Lead ${team.lead.status})`}`;

/** Everything about one team: roster, tasks, legacy mailbox, failure. */
export const renderTeam = (team: TeamJson, style: TextStyle): string[] => [
  teamHeading(team, style),
  ...renderRoster(team, style),
  ...renderTasks(team, style),
  ...renderLegacyMailbox(team, style),
  ...renderFailure(team, style),
];
