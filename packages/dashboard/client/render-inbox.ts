import type { TimelineItem } from './api-shapes.js';
import { el, formatTime } from './element.js';

const sender = (item: TimelineItem): string =>
  item.senderSessionId === undefined
    ? item.sourceKind
    : `${item.sourceKind} from ${item.senderName ?? item.senderSessionId}`;

const timelineItem = (item: TimelineItem): HTMLLIElement =>
  el(
    'li',
    {
      class: `timeline-item kind-${item.kind}`,
      'data-kind': item.kind,
      'data-message-id': item.messageId,
      'data-seq': String(item.seq),
    },
    el('span', { class: 'timeline-seq' }, `seq ${item.seq}`),
    el('span', { class: `timeline-kind kind-${item.kind}` }, item.kind),
    el('span', { class: 'timeline-sender' }, sender(item)),
    item.list === undefined ? null : el('span', { class: 'timeline-list' }, item.list),
    el('span', { class: 'timeline-message id' }, item.messageId),
    item.kind === 'accepted' ? el('span', { class: 'timeline-time' }, formatTime(item.time)) : null,
  );

/** Acceptances, claims and cancellations of one session's inbox, in seq order. */
export const renderTimeline = (list: HTMLOListElement, timeline: readonly TimelineItem[] | undefined): void => {
  if (timeline === undefined || timeline.length === 0) {
    list.replaceChildren(
      el('li', { class: 'empty' }, timeline === undefined ? 'no session with inbox entries' : 'no inbox entries'),
    );
    return;
  }
  list.replaceChildren(...timeline.map(timelineItem));
};
