import type { FailureRow } from './api-shapes.js';
import { el } from './element.js';

const failure = (row: FailureRow): HTMLElement =>
  el(
    'article',
    { class: 'failure', 'data-team-id': row.teamId, 'data-seq': String(row.failure.seq) },
    el('h3', {}, `team ${row.teamId}`),
    el('p', { class: 'failure-reason' }, row.failure.reason),
    el(
      'p',
      { class: 'failure-where' },
      `${row.failure.type} at `,
      el('a', { class: 'event-link', href: row.eventUrl }, `seq ${row.failure.seq}`),
      '; later Team records are ignored',
    ),
    el(
      'pre',
      { class: 'failure-record' },
      row.record === null ? 'the record is no longer in the store' : JSON.stringify(row.record.data, null, 2),
    ),
  );

/** Teams whose projection stopped at a record that broke a Team rule (docs/rules.md#team-failure-mode). */
export const renderFailures = (container: HTMLElement, rows: readonly FailureRow[]): void => {
  container.replaceChildren(
    ...(rows.length === 0 ? [el('p', { class: 'empty' }, 'no team projection failed')] : rows.map(failure)),
  );
};
