import * as fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/Either';
import { compressSeqRanges, expandSeqRanges } from '../src/seq-range-codec';

describe('sourceEventSeqs range codec (docs/rules.md#source-event-seqs)', () => {
  it('stores a run of three or more as a pair and leaves shorter runs as numbers', () => {
    expect(compressSeqRanges([3, 4, 5, 6, 9, 10])).toEqual([[3, 6], 9, 10]);
    expect(compressSeqRanges([4, 5])).toEqual([4, 5]);
    expect(compressSeqRanges([7])).toEqual([7]);
  });

  it('writes a list that is not strictly increasing verbatim', () => {
    expect(compressSeqRanges([5, 4, 3, 2])).toEqual([5, 4, 3, 2]);
  });

  it('expands pairs on read', () => {
    expect(expandSeqRanges([[3, 6], 9, 10], 11)).toEqual({ _tag: 'Right', right: [3, 4, 5, 6, 9, 10] });
  });

  it('refuses a seq that is not earlier than the event, naming the field', () => {
    const result = expandSeqRanges([[3, 6]], 6);
    expect(isLeft(result) && result.left.path).toBe('sourceEventSeqs[0]');
    expect(isLeft(expandSeqRanges([8], 8))).toBe(true);
  });

  it('refuses duplicates and ranges that run backwards', () => {
    expect(isLeft(expandSeqRanges([2, 2], 5))).toBe(true);
    expect(isLeft(expandSeqRanges([[4, 2]], 5))).toBe(true);
    expect(isLeft(expandSeqRanges([[1, 3], 2], 5))).toBe(true);
  });

  it('refuses a range holding more seqs than precede the event without expanding it', () => {
    expect(isLeft(expandSeqRanges([[0, 9_000_000_000_000]], 10))).toBe(true);
  });

  it('round-trips any strictly increasing list of earlier seqs', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 40 }), (values) => {
        const sorted = [...values].sort((a, b) => a - b);
        const expanded = expandSeqRanges(compressSeqRanges(sorted), 201);
        return isRight(expanded) && JSON.stringify(expanded.right) === JSON.stringify(sorted);
      }),
      { seed: 3, numRuns: 200 },
    );
  });
});
