import type { ReplayDocument } from '../replay-document';
import { renderAudit } from './audit-text';
import { renderInboxCounts } from './inbox-text';
import { plural } from './plural';
import { renderSessions } from './sessions-text';
import { renderTeam } from './team-text';
import type { TextStyle } from './text-style';

/** Teams the summary shows in full. */
const teamLimit = 20;

const footer = (document: ReplayDocument): string =>
  [
    `Store ${document.store}`,
    document.position === null ? ' is empty' : ` at position ${document.position}`,
    document.asOf === undefined ? '' : `; views as of ${document.asOf}`,
  ].join('');

/** `teamlog replay` for a person: what was read, every team, inboxes, audit, and where it is stored. */
export const renderReplaySummary = (document: ReplayDocument, style: TextStyle): string => {
  const shown = document.teams.slice(0, teamLimit);
  const hidden = document.teams.length - shown.length;
  const teams = [
    ...shown.flatMap((team) => ['', ...renderTeam(team, style)]),
    ...(hidden > 0
      ? [
          '',
          style.dim(
            `… ${plural(hidden, 'more team')} (teamlog roster, tasks and legacy show each team; --json lists them all)`,
          ),
        ]
      : []),
  ];
  const lines = [
    ...renderSessions(document.sessions, document.totals, style),
    '',
    style.heading(
      `Teams: ${document.teams.length === 0 ? 'none (no log has a team record)' : plural(document.teams.length, 'team')}`,
    ),
    ...teams,
    '',
    ...renderInboxCounts(document.inbox, style),
    '',
    ...renderAudit(document.audit, style),
    '',
    style.dim(footer(document)),
  ];
  return `${lines.join('\n')}\n`;
};
