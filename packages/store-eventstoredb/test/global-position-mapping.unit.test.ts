import fc from 'fast-check';
import { fromClientPosition, toClientPosition } from '@teamlog/store-eventstoredb';

describe('$all position mapping', () => {
  it('maps commit and prepare one to one, both ways, for any 64-bit values', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        (commit, prepare) => {
          expect(toClientPosition({ commit, prepare })).toEqual({ commit, prepare });
          expect(fromClientPosition({ commit, prepare })).toEqual({ commit, prepare });
          expect(fromClientPosition(toClientPosition({ commit, prepare }))).toEqual({ commit, prepare });
        },
      ),
    );
  });

  it('keeps commit and prepare apart when they differ', () => {
    expect(fromClientPosition({ commit: 1_234_567n, prepare: 1_234_000n })).toEqual({
      commit: 1_234_567n,
      prepare: 1_234_000n,
    });
  });
});
