import type { ChainRow, ChainsAnswer } from './api-shapes.js';
import { el } from './element.js';

const row = (found: ChainRow): HTMLTableRowElement =>
  el(
    'tr',
    { class: 'chain-row', 'data-code': found.code, 'data-stream': found.streamName, 'data-revision': found.revision },
    el(
      'td',
      {},
      el('span', { class: 'audit-code', title: found.explanation }, found.code),
      el('div', { class: 'audit-explanation' }, found.explanation),
    ),
    el('td', { class: 'id' }, found.streamName),
    el(
      'td',
      {},
      found.eventUrl === undefined
        ? `revision ${found.revision}`
        : el('a', { class: 'event-link', href: found.eventUrl }, `revision ${found.revision}`),
    ),
    el('td', {}, found.detail),
  );

const note = (text: string): HTMLTableRowElement => el('tr', {}, el('td', { colspan: '4', class: 'empty' }, text));

/** Each stream's first hash-chain break, beside the attribution findings (docs/trust-boundary.md). */
export const renderChains = (body: HTMLTableSectionElement, chains: ChainsAnswer): void => {
  if (!chains.checked) {
    body.replaceChildren(note('this store keeps no hash chains'));
    return;
  }
  body.replaceChildren(
    ...(chains.findings.length === 0
      ? [note(`chains intact: ${chains.streams} streams, ${chains.events} events`)]
      : chains.findings.map(row)),
  );
};
