import { getJson } from './api-client.js';
import type { EventAnswer } from './api-shapes.js';
import { el } from './element.js';

/** Show the stored event behind an audit finding, a failure or a mailbox record. */
export const showEvent = async (viewer: HTMLElement, url: string): Promise<void> => {
  viewer.replaceChildren(el('p', { class: 'empty' }, 'loading…'));
  try {
    const { event } = await getJson<EventAnswer>(url);
    viewer.replaceChildren(
      el(
        'p',
        {
          class: 'event-heading',
          'data-session-id': event.sessionId,
          'data-seq': String(event.seq),
          'data-type': event.type,
        },
        `${event.type} · ${event.seq === -1 ? 'header' : `seq ${event.seq}`} of ${event.sessionId} · stream ${event.streamName} · position ${event.position}`,
      ),
      el('pre', { class: 'event-json' }, JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2)),
    );
  } catch (error) {
    viewer.replaceChildren(el('p', { class: 'load-error' }, error instanceof Error ? error.message : String(error)));
  }
  viewer.scrollIntoView({ block: 'nearest' });
};

/** Event links open in the viewer instead of navigating away from the live page. */
export const openEventLinksIn = (viewer: HTMLElement): void => {
  document.addEventListener('click', (click) => {
    const link = click.target instanceof Element ? click.target.closest('a.event-link') : null;
    if (!(link instanceof HTMLAnchorElement) || click.button !== 0 || click.ctrlKey || click.metaKey || click.shiftKey)
      return;
    click.preventDefault();
    void showEvent(viewer, link.getAttribute('href') ?? '');
  });
};
