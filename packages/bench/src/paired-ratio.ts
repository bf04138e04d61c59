import type { ChildResult } from './child-protocol';
import { ratePerSecond } from './report-table';

/** One run of a case and of its counterpart, measured back to back. */
export interface RunPair {
  readonly measured: ChildResult;
  readonly counterpart: ChildResult;
  /** Which of the two ran first, where the pair's maker says. */
  readonly counterpartFirst?: boolean;
}

/** The measured rate over its counterpart's in one pair. */
export const pairRatio = ({ measured, counterpart }: RunPair): number =>
  ratePerSecond(measured.count, measured.elapsedMs) / ratePerSecond(counterpart.count, counterpart.elapsedMs);

const cpuMsOf = (result: ChildResult): number | undefined => {
  const cpuMs = result.detail.cpuMs;
  return typeof cpuMs === 'number' && cpuMs > 0 ? cpuMs : undefined;
};

/**
 * The same ratio on CPU time (items per CPU second, both sides as their child reported `cpuMs`);
 * undefined when either side did not report it. Waiting for a core does not count in it.
 */
export const pairCpuRatio = ({ measured, counterpart }: RunPair): number | undefined => {
  const measuredCpu = cpuMsOf(measured);
  const counterpartCpu = cpuMsOf(counterpart);
  return measuredCpu === undefined || counterpartCpu === undefined
    ? undefined
    : ratePerSecond(measured.count, measuredCpu) / ratePerSecond(counterpart.count, counterpartCpu);
};

/** The pairs' ratios: the median (the lower middle one of an even count), the lowest and the highest. */
export interface PairedSpread {
  readonly median: number;
  readonly lowest: number;
  readonly highest: number;
  /** The pair whose ratio is the median: the rates a report shows next to it. */
  readonly medianPair: RunPair;
}

/**
 * How the pairs' ratios spread. On a shared machine the load moves from second to second, so runs
 * measured back to back are compared, not two medians taken minutes apart.
 */
export const pairedSpread = (pairs: readonly RunPair[]): PairedSpread => {
  if (pairs.length === 0) throw new RangeError('a paired ratio needs at least one pair of runs');
  const sorted = pairs.map((pair) => ({ pair, ratio: pairRatio(pair) })).sort((a, b) => a.ratio - b.ratio);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)] as { pair: RunPair; ratio: number };
  return {
    median: middle.ratio,
    lowest: (sorted[0] as { ratio: number }).ratio,
    highest: (sorted[sorted.length - 1] as { ratio: number }).ratio,
    medianPair: middle.pair,
  };
};

/** The median over runs of the measured rate against its counterpart's rate in the same run (the lower middle one for an even count). */
export const pairedRatio = (pairs: readonly RunPair[]): number => pairedSpread(pairs).median;

/**
 * The median pair ratio on CPU time (the lower middle one for an even count), or undefined when a
 * pair's child did not report its CPU time.
 */
export const pairedCpuRatio = (pairs: readonly RunPair[]): number | undefined => {
  const ratios = pairs.map(pairCpuRatio);
  if (!ratios.every((ratio): ratio is number => ratio !== undefined)) return undefined;
  return ratios.sort((a, b) => a - b)[Math.floor((ratios.length - 1) / 2)];
};
