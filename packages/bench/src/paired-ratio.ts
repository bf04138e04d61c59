import type { ChildResult } from './child-protocol';
import { ratePerSecond } from './report-table';

/** One run of a case and of its counterpart, measured back to back. */
export interface RunPair {
  readonly measured: ChildResult;
  readonly counterpart: ChildResult;
}

/**
 * The median over runs of the measured rate against its counterpart's rate in the same run (the
 * lower middle one for an even count). On a shared disk the fsync rate moves from minute to
 * minute, so runs measured back to back are compared, not two medians taken minutes apart.
 */
export const pairedRatio = (pairs: readonly RunPair[]): number => {
  if (pairs.length === 0) throw new RangeError('a paired ratio needs at least one pair of runs');
  const ratios = pairs
    .map(
      ({ measured, counterpart }) =>
        ratePerSecond(measured.count, measured.elapsedMs) / ratePerSecond(counterpart.count, counterpart.elapsedMs),
    )
    .sort((a, b) => a - b);
  return ratios[Math.floor((ratios.length - 1) / 2)] as number;
};
