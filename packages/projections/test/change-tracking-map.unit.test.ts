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
