import { el } from './element.js';

/** How much of a long text shows before "show all". */
export const shortLength = 280;

/**
 * A text shortened to its first lines, the rest on demand (a `<details>` element, so it works by
 * keyboard and screen reader). Always a text node: never parsed as markup.
 */
export const longText = (text: string, className = 'long-text'): HTMLElement => {
  if (text.length <= shortLength && text.split('\n').length <= 4) return el('div', { class: className }, text);
  const head = text.slice(0, shortLength).split('\n').slice(0, 4).join('\n');
  return el(
    'details',
    { class: `${className} expandable` },
    el(
      'summary',
      {},
      el('span', { class: 'text-head' }, `${head}…`),
      el('span', { class: 'show-all' }, ` show all (${text.length.toLocaleString('en-US')} characters)`),
    ),
    el('div', { class: 'text-full' }, text),
  );
};
