import type { AuditFinding } from './api-shapes.js';
import { el } from './element.js';

const row = (finding: AuditFinding): HTMLTableRowElement =>
  el(
    'tr',
    {
      class: 'audit-row',
      'data-code': finding.code,
      'data-session-id': finding.sessionId,
      'data-seq': String(finding.seq),
    },
    el(
      'td',
      {},
      el('span', { class: 'audit-code', title: finding.explanation }, finding.code),
      el('div', { class: 'audit-explanation' }, finding.explanation),
    ),
    el('td', { class: 'id' }, finding.sessionId),
    el(
      'td',
      {},
      el('a', { class: 'event-link', href: finding.eventUrl }, finding.seq === -1 ? 'header' : `seq ${finding.seq}`),
    ),
    el('td', { class: 'id' }, finding.messageId ?? '—'),
    el('td', {}, finding.detail),
  );

/** Sender-attribution findings, each linking to the event that shows it. */
export const renderAudit = (body: HTMLTableSectionElement, findings: readonly AuditFinding[]): void => {
  body.replaceChildren(
    ...(findings.length === 0
      ? [el('tr', {}, el('td', { colspan: '5', class: 'empty' }, 'no findings'))]
      : findings.map(row)),
  );
};
