import type { Member, Team, Task } from './api-shapes.js';
import { el } from './element.js';

/** A team as a person reads it: its name when the engine recorded one, else its id. */
export const teamLabel = (team: Team): string => team.name ?? team.teamId;

export const renderTeamSelect = (
  select: HTMLSelectElement,
  teams: readonly Team[],
  selected: string | undefined,
): void => {
  select.replaceChildren(
    ...teams.map((team) =>
      el(
        'option',
        { value: team.teamId, ...(team.teamId === selected ? { selected: '' } : {}) },
        `${teamLabel(team)}${team.name === undefined ? '' : ` · ${team.teamId.slice(0, 8)}…`} (${team.members.length} members${team.failure === null ? '' : ', failed'})`,
      ),
    ),
  );
  if (selected !== undefined) select.value = selected;
};

const statusBadge = (status: string): HTMLElement => el('span', { class: `status status-${status}` }, status);

const memberRow = (member: Member): HTMLTableRowElement =>
  el(
    'tr',
    { 'data-session-id': member.id, 'data-status': member.status, 'data-role': 'member' },
    el('td', { class: 'name' }, member.name),
    el('td', {}, statusBadge(member.status)),
    el('td', {}, member.phase),
    el('td', {}, member.provider),
    el('td', {}, member.context),
    el('td', { class: 'id' }, member.id),
    el(
      'td',
      {},
      member.description,
      member.error === undefined ? null : el('div', { class: 'member-error' }, member.error),
    ),
  );

/** The Lead first, then the members in roster order, each with its status. */
export const renderRoster = (body: HTMLTableSectionElement, team: Team | undefined, selected = false): void => {
  if (team === undefined) {
    body.replaceChildren(
      el(
        'tr',
        {},
        el(
          'td',
          { colspan: '7', class: 'empty' },
          selected ? 'the team has no record yet at this moment' : 'no team in the store yet',
        ),
      ),
    );
    return;
  }
  const lead = el(
    'tr',
    { 'data-session-id': team.lead.id, 'data-status': team.lead.status, 'data-role': 'lead' },
    el('td', { class: 'name' }, 'lead'),
    el('td', {}, statusBadge(team.lead.status)),
    el('td', {}, '—'),
    el('td', {}, '—'),
    el('td', {}, '—'),
    el('td', { class: 'id' }, team.lead.id),
    el('td', {}, "the team's Lead session"),
  );
  body.replaceChildren(lead, ...team.members.map(memberRow));
};

const columns: ReadonlyArray<readonly [Task['status'], string]> = [
  ['pending', 'Pending'],
  ['in_progress', 'In progress'],
  ['completed', 'Completed'],
  ['deleted', 'Deleted'],
];

const taskCard = (task: Task, names: ReadonlyMap<string, string>): HTMLElement =>
  el(
    'div',
    { class: 'task-card', 'data-task-id': task.id, 'data-status': task.status },
    el('div', { class: 'task-subject' }, task.subject),
    el('div', { class: 'task-meta' }, `${task.id} · revision ${task.revision}`),
    task.ownerId === undefined
      ? null
      : el('div', { class: 'task-owner' }, `owner: ${names.get(task.ownerId) ?? task.ownerId}`),
    task.blockedBy.length === 0
      ? null
      : el('div', { class: 'task-blocked' }, `blocked by ${task.blockedBy.join(', ')}`),
    task.writeScopes.length === 0 ? null : el('div', { class: 'task-scopes' }, `writes ${task.writeScopes.join(', ')}`),
  );

export const renderTaskBoard = (board: HTMLElement, team: Team | undefined): void => {
  const tasks = team?.tasks ?? [];
  const names = new Map<string, string>(
    team === undefined
      ? []
      : [[team.lead.id, 'lead'], ...team.members.map((member) => [member.id, member.name] as [string, string])],
  );
  board.replaceChildren(
    ...columns.map(([status, title]) => {
      const cards = tasks.filter((task) => task.status === status);
      return el(
        'div',
        { class: 'task-column', 'data-status': status },
        el('h4', {}, `${title} (${cards.length})`),
        ...cards.map((task) => taskCard(task, names)),
      );
    }),
  );
};
