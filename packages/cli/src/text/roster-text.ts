import type { TeamJson } from '../replay-document';
import { plural } from './plural';
import { renderTable } from './text-table';
import type { TextStyle } from './text-style';

/** A team's members in order of first appearance, with their latest snapshot. */
export const renderRoster = (team: TeamJson, style: TextStyle, indent = '  '): string[] => {
  if (team.members.length === 0) return [`${indent}Roster: no members`];
  const rows = team.members.map((member) => {
    const phase = member.phase === 'failed' ? { text: member.phase, style: style.alert } : member.phase;
    return [member.name, member.id, phase, member.status ?? '', member.provider, member.context, member.error ?? ''];
  });
  return [
    `${indent}Roster: ${plural(team.members.length, 'member')}`,
    ...renderTable(['NAME', 'SESSION', 'PHASE', 'STATUS', 'PROVIDER', 'CONTEXT', 'ERROR'], rows, `${indent}  `, {
      rest: `teamlog roster --team ${team.teamId} --json lists them all`,
    }),
  ];
};
