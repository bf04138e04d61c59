import type { ChildResult } from './child-protocol';

/** The run with the median elapsed time (the lower middle one for an even count). */
export const medianRun = (runs: readonly ChildResult[]): ChildResult => {
  if (runs.length === 0) throw new RangeError('a median needs at least one run');
  const sorted = [...runs].sort((a, b) => a.elapsedMs - b.elapsedMs);
  return sorted[Math.floor((sorted.length - 1) / 2)] as ChildResult;
};
