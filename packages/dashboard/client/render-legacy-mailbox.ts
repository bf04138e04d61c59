import type { LegacyMessage } from './api-shapes.js';
import { el } from './element.js';
import { longText } from './long-text.js';

const heldByTarget = (message: LegacyMessage): string =>
  message.targetHasMessage === undefined ? 'log not in store' : message.targetHasMessage ? 'yes' : 'no';

const row = (message: LegacyMessage): HTMLTableRowElement =>
  el(
    'tr',
    {
      class: `legacy-row ${message.status}`,
      'data-message-id': message.id,
      'data-status': message.status,
      'data-team-id': message.teamId,
    },
    el('td', { class: 'id' }, message.teamId),
    el('td', {}, el('a', { class: 'event-link', href: message.eventUrl }, `seq ${message.queuedSeq}`)),
    el('td', {}, message.senderName),
    el('td', {}, message.targetName),
    el('td', {}, message.delivery ?? '—'),
    el(
      'td',
      {},
      el('span', { class: `status status-${message.status}` }, message.status),
      message.deliveredSeq === undefined ? null : ` at seq ${message.deliveredSeq}`,
    ),
    el('td', {}, heldByTarget(message)),
    el('td', { class: 'message-text' }, longText(message.text ?? '—')),
    el('td', { class: 'id' }, message.id),
  );

/** Mailbox-era messages; undelivered ones are highlighted (teamlog never delivers them). */
export const renderLegacyMailbox = (
  body: HTMLTableSectionElement,
  messages: readonly LegacyMessage[],
  total = messages.length,
): void => {
  const more =
    total > messages.length
      ? [
          el(
            'tr',
            { class: 'legacy-more' },
            el('td', { colspan: '9', class: 'empty' }, `the first ${messages.length} of ${total} records`),
          ),
        ]
      : [];
  body.replaceChildren(
    ...(messages.length === 0
      ? [el('tr', {}, el('td', { colspan: '9', class: 'empty' }, 'no legacy mailbox records'))]
      : [...messages.map(row), ...more]),
  );
};
