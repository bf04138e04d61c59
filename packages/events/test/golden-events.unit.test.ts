import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isRight } from 'fp-ts/Either';
import { catalogEventTypes, decodeCatalogEvent, type CatalogEventType } from '@teamlog/events';

const goldenDirectory = resolve(__dirname, '../../../fixtures/golden');
const fileOf = (type: string) => `${type.replace(/\//g, '__')}.json`;
const load = (type: string): { type: string; examples: unknown[] } =>
  JSON.parse(readFileSync(join(goldenDirectory, fileOf(type)), 'utf8')) as { type: string; examples: unknown[] };

describe('golden events (schema-break guard)', () => {
  const files = new Set(readdirSync(goldenDirectory));

  it.each(catalogEventTypes)('has golden examples of %s', (type) => {
    expect(files.has(fileOf(type))).toBe(true);
    expect(load(type).examples.length).toBeGreaterThan(0);
  });

  it.each(catalogEventTypes)('still decodes every golden example of %s', (type) => {
    for (const example of load(type).examples) {
      const decoded = decodeCatalogEvent(type as CatalogEventType, example);
      if (!isRight(decoded)) throw decoded.left;
    }
  });

  it('has no golden file for a type the catalog does not know', () => {
    const known = new Set(catalogEventTypes.map(fileOf));
    expect([...files].filter((file) => file.endsWith('.json') && !known.has(file))).toEqual([]);
  });
});
