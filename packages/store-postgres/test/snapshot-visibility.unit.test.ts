import { parsePgSnapshot, visibleInSnapshot } from '@teamlog/store-postgres';

describe('pg_snapshot visibility', () => {
  const snapshot = parsePgSnapshot('100:105:100,103');

  it('parses xmin, xmax and the transactions in progress', () => {
    expect(snapshot).toEqual({ xmin: 100n, xmax: 105n, inProgress: new Set([100n, 103n]) });
    expect(parsePgSnapshot('7:7:')).toEqual({ xmin: 7n, xmax: 7n, inProgress: new Set() });
  });

  it('sees transactions below xmin and finished ones below xmax, not those in progress or started later', () => {
    expect([99n, 100n, 101n, 102n, 103n, 104n, 105n, 200n].map((xid) => visibleInSnapshot(snapshot, xid))).toEqual([
      true,
      false,
      true,
      true,
      false,
      true,
      false,
      false,
    ]);
  });

  it('refuses text that is not a snapshot', () => {
    expect(() => parsePgSnapshot('1:2')).toThrow(TypeError);
  });
});
