import type { ConversationItem } from './api-shapes.js';
import { el, formatTime } from './element.js';
import { longText } from './long-text.js';

const kindLabel: Readonly<Record<ConversationItem['kind'], string>> = {
  user: 'user',
  assistant: 'assistant',
  reasoning: 'reasoning',
  'tool-call': 'tool call',
  'tool-result': 'tool result',
  'team-message': 'Team message',
  'legacy-mailbox': 'legacy mailbox',
  turn: 'turn',
  lifecycle: 'session',
};

/** What a Team message's delivery means for a reader. */
const deliveryLabel = (delivery: string | undefined): string | undefined =>
  delivery === 'next-step' ? 'steer (next step)' : delivery === 'next-turn' ? 'starts a turn (next turn)' : delivery;

const badges = (item: ConversationItem): HTMLElement[] => [
  ...(item.delivery === undefined ? [] : [el('span', { class: 'badge delivery' }, deliveryLabel(item.delivery))]),
  ...(item.status === undefined ? [] : [el('span', { class: `status status-${item.status}` }, item.status)]),
  ...(item.isError === true ? [el('span', { class: 'status status-failed' }, 'error')] : []),
];

/** Who speaks, when the kind does not already say it ("user", "assistant"). */
const authorText = (item: ConversationItem): string => {
  if (item.kind === 'legacy-mailbox') return `${item.author} → ${item.target ?? '?'}`;
  if (item.kind === 'team-message') return `from ${item.author}`;
  return item.author === kindLabel[item.kind] || (item.kind === 'reasoning' && item.author === 'assistant')
    ? ''
    : item.author;
};

const heading = (item: ConversationItem): HTMLElement =>
  el(
    'div',
    { class: 'turn-heading' },
    el('span', { class: 'turn-kind' }, kindLabel[item.kind]),
    el('span', { class: 'turn-author' }, authorText(item)),
    ...badges(item),
    el('span', { class: 'turn-seq' }, `seq ${item.seq}`),
    item.time === undefined ? null : el('span', { class: 'turn-time' }, formatTime(item.time)),
  );

const entry = (item: ConversationItem): HTMLLIElement =>
  item.kind === 'turn' || item.kind === 'lifecycle'
    ? el(
        'li',
        { class: `conversation-item kind-${item.kind}`, 'data-kind': item.kind, 'data-seq': String(item.seq) },
        el('span', { class: 'turn-note' }, `${item.text} · seq ${item.seq}`),
      )
    : el(
        'li',
        {
          class: `conversation-item kind-${item.kind}${item.status === undefined ? '' : ` message-${item.status}`}`,
          'data-kind': item.kind,
          'data-seq': String(item.seq),
          'data-message-id': item.messageId,
          'data-status': item.status,
        },
        heading(item),
        longText(
          item.text === '' ? '(no text)' : item.text,
          item.kind === 'tool-call' || item.kind === 'tool-result' ? 'long-text code' : 'long-text',
        ),
      );

/** Entries of a session's transcript, to render or to append (the next page). */
export const conversationEntries = (items: readonly ConversationItem[]): HTMLLIElement[] => items.map(entry);

/**
 * A session's transcript: what was said and by whom, in order. When it goes on past this page,
 * a last entry offers the rest: `more` is called with its button.
 */
export const renderConversation = (
  list: HTMLOListElement,
  items: readonly ConversationItem[] | undefined,
  more?: (button: HTMLButtonElement) => void,
): void => {
  if (items === undefined || items.length === 0) {
    list.replaceChildren(
      el(
        'li',
        { class: 'empty' },
        items === undefined ? 'pick a session to read its conversation' : 'nothing said yet at this moment',
      ),
    );
    return;
  }
  list.replaceChildren(...conversationEntries(items));
  if (more !== undefined) appendMore(list, more);
};

/** The entry that loads the next page. */
export const appendMore = (list: HTMLOListElement, more: (button: HTMLButtonElement) => void): void => {
  const button = el('button', { type: 'button', class: 'more' }, 'show the rest of the conversation');
  button.addEventListener('click', () => more(button));
  list.append(el('li', { class: 'conversation-more' }, button));
};
