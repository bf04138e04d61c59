import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { catalogEventTypes } from '@teamlog/events';

describe('docs/event-catalog.md', () => {
  const doc = readFileSync(resolve(__dirname, '../../../docs/event-catalog.md'), 'utf8');
  const entries = new Set([...doc.matchAll(/^### `([^`]+)`$/gm)].map((match) => match[1]));

  it.each(catalogEventTypes)('has an entry for %s', (type) => {
    expect(entries.has(type)).toBe(true);
  });

  it('has no entry for a type the catalog does not decode', () => {
    expect([...entries].filter((type) => !(catalogEventTypes as string[]).includes(type as string))).toEqual([]);
  });
});
