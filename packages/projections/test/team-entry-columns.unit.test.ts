import { ChangeTrackingMap, visitEntryChanges } from '@teamlog/projections';

/* Which rows of a Lead's entry table a commit writes, for either view store. */

const visits = (map: ReadonlyMap<string, number>): string[] => {
  const seen: string[] = [];
  visitEntryChanges(map, {
    whole: () => seen.push('whole'),
    put: (key, entry) => seen.push(`put ${key}=${entry}`),
    drop: (key) => seen.push(`drop ${key}`),
  });
  return seen;
};

describe('visitEntryChanges', () => {
  it('given a map that tracks changes, when only some keys changed, then only those are put or dropped', () => {
    const map = ChangeTrackingMap.unchanged<string, number>([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    map.set('b', 20);
    map.delete('c');
    expect(visits(map)).toEqual(['put b=20', 'drop c']);
  });

  it('given a map that tracks changes, when nothing changed, then nothing is written', () => {
    expect(visits(ChangeTrackingMap.unchanged<string, number>([['a', 1]]))).toEqual([]);
  });

  it('given a plain map, then the Lead is written whole: its rows go, then every entry is put', () => {
    expect(
      visits(
        new Map([
          ['a', 1],
          ['b', 2],
        ]),
      ),
    ).toEqual(['whole', 'put a=1', 'put b=2']);
  });
});
