import type { TeamJson } from '../replay-document';
import { plural } from './plural';
import { renderTable } from './text-table';
import type { TextStyle } from './text-style';

/** A team's tasks in order of first appearance, with their latest revision. */
export const renderTasks = (team: TeamJson, style: TextStyle, indent = '  '): string[] => {
  if (team.tasks.length === 0) return [`${indent}Tasks: none`];
  const rows = team.tasks.map((task) => [
    task.id,
    String(task.revision),
    task.status === 'deleted' ? { text: task.status, style: style.dim } : task.status,
    task.ownerId ?? '-',
    task.blockedBy.length === 0 ? '-' : task.blockedBy.join(','),
    task.subject,
  ]);
  return [
    `${indent}Tasks: ${plural(team.tasks.length, 'task')}`,
    ...renderTable(['TASK', 'REV', 'STATUS', 'OWNER', 'BLOCKED BY', 'SUBJECT'], rows, `${indent}  `, {
      rest: `teamlog tasks --team ${team.teamId} --json lists them all`,
    }),
  ];
};
