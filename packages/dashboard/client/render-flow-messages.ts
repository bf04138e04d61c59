import type { FlowAnswer } from './api-shapes.js';
import { el, formatTime } from './element.js';
import { longText } from './long-text.js';

/** The messages of the diagram as a numbered list, each with its text (shortened, full on demand). */
export const renderFlowMessages = (list: HTMLOListElement, flow: FlowAnswer['flow'] | undefined): void => {
  if (flow === undefined || flow.messages.length === 0) {
    list.replaceChildren(el('li', { class: 'empty' }, 'no messages at this moment'));
    return;
  }
  const names = new Map(flow.participants.map((participant) => [participant.id, participant.name]));
  list.replaceChildren(
    ...flow.messages.map((message, index) =>
      el(
        'li',
        {
          class: `flow-message via-${message.via} message-${message.status}`,
          'data-message-id': message.messageId,
          'data-order': String(index + 1),
        },
        el(
          'div',
          { class: 'turn-heading' },
          el('span', { class: 'turn-kind' }, `${index + 1}.`),
          el(
            'span',
            { class: 'turn-author' },
            `${message.senderName ?? names.get(message.from) ?? message.from} → ${names.get(message.to) ?? message.to}`,
          ),
          el('span', { class: `status status-${message.status}` }, message.status),
          message.via === 'legacy-mailbox' ? el('span', { class: 'badge' }, 'legacy mailbox') : null,
          el('span', { class: 'turn-time' }, formatTime(message.time)),
        ),
        longText(message.text ?? '(text not loaded)'),
      ),
    ),
  );
};
