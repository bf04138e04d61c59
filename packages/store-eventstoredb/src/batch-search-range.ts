import type { ExpectedRevision } from '@teamlog/store';

/** Which revisions of a stream to read back to see whether a batch was already appended. */
export interface BatchSearchRange {
  readonly from: 'start' | 'end' | bigint;
  readonly direction: 'forwards' | 'backwards';
  readonly maxCount: number;
}

/**
 * Right after an exact expected revision (or from 0 for no_stream) the batch can only be in one
 * place; for 'any' and 'stream_exists' it is searched among the stream's last `window` + batch
 * events (read backwards: reverse the slice before looking).
 */
export const batchSearchRange = (expected: ExpectedRevision, batchSize: number, window: number): BatchSearchRange => {
  if (typeof expected === 'bigint') return { from: expected + 1n, direction: 'forwards', maxCount: batchSize };
  switch (expected) {
    case 'no_stream':
      return { from: 'start', direction: 'forwards', maxCount: batchSize };
    case 'any':
    case 'stream_exists':
      return { from: 'end', direction: 'backwards', maxCount: batchSize + window };
    default: {
      const unreachable: never = expected;
      return unreachable;
    }
  }
};
