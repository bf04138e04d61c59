import { ChangeTrackingMap } from '@teamlog/projections';

describe('change-tracking map', () => {
  it('reports the keys set or deleted since its changes were cleared', () => {
    const map = ChangeTrackingMap.unchanged([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect([...map.changedKeys()]).toEqual([]);
    map.set('b', 20);
    map.delete('c');
    map.set('d', 4);
    expect([...map.changedKeys()]).toEqual(['b', 'c', 'd']);
    expect([...map.entries()]).toEqual([
      ['a', 1],
      ['b', 20],
      ['d', 4],
    ]);
    map.clearChanges();
    expect([...map.changedKeys()]).toEqual([]);
  });

  it('given clear, then every key it held is reported', () => {
    const map = ChangeTrackingMap.unchanged([
      ['a', 1],
      ['b', 2],
    ]);
    map.clear();
    expect([...map.changedKeys()]).toEqual(['a', 'b']);
    expect(map.size).toBe(0);
  });
});

describe('change-tracking map, batch after batch', () => {
  it('reports each changed key once per batch, and a key changed again in a later batch again', () => {
    const map = new ChangeTrackingMap<string, number>();
    map.set('a', 1);
    map.set('a', 2);
    map.set('b', 1);
    expect([...map.changedKeys()]).toEqual(['a', 'b']);
    map.clearChanges();
    map.set('b', 2);
    map.set('b', 3);
    expect([...map.changedKeys()]).toEqual(['b']);
    map.clearChanges();
    map.delete('a');
    map.set('c', 1);
    expect([...map.changedKeys()]).toEqual(['a', 'c']);
    map.clearChanges();
    map.set('a', 5);
    expect([...map.changedKeys()]).toEqual(['a']);
  });

  it('hands out a list that a later change does not alter', () => {
    const map = new ChangeTrackingMap<string, number>();
    map.set('a', 1);
    const first = map.changedKeys();
    map.clearChanges();
    map.set('b', 1);
    expect([...first]).toEqual(['a']);
    expect([...map.changedKeys()]).toEqual(['b']);
  });
});
