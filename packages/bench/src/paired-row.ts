import { type RunPair, pairCpuRatio, pairRatio, pairedCpuRatio, pairedSpread } from './paired-ratio';
import { type ReportRow, type Target, formatRate, formatRatio, ratePerSecond, throughputRow } from './report-table';

const rateOf = (run: RunPair['measured']): number => ratePerSecond(run.count, run.elapsedMs);

/**
 * A throughput row over back-to-back pairs: the ratio (and the verdict) is the median of the pairs'
 * ratios, the rates shown are that pair's, and the ratio cell adds the lowest and highest pair and,
 * where both sides reported their CPU time, the median pair ratio on CPU time, so a reader sees how
 * firm the verdict is and how much of it waiting for a core made.
 */
export const pairedThroughputRow = (
  measure: string,
  unit: string,
  baselineName: string,
  pairs: readonly RunPair[],
  target: Target,
): ReportRow => {
  const spread = pairedSpread(pairs);
  const row = throughputRow(
    measure,
    unit,
    rateOf(spread.medianPair.measured),
    baselineName,
    rateOf(spread.medianPair.counterpart),
    target,
  );
  const cpuRatio = pairedCpuRatio(pairs);
  const cpu = cpuRatio === undefined ? undefined : `CPU ${formatRatio(cpuRatio)}`;
  const spreadText =
    pairs.length === 1
      ? undefined
      : `${formatRatio(spread.lowest)}-${formatRatio(spread.highest)}, ${pairs.length} pairs`;
  const extras = [spreadText, cpu].filter((text): text is string => text !== undefined);
  return extras.length === 0 ? row : { ...row, ratio: `${row.ratio} (${extras.join('; ')})` };
};

const rangeOf = (values: readonly number[], format: (value: number) => string): string => {
  const sorted = [...values].sort((a, b) => a - b);
  const [lowest, highest] = [sorted[0] as number, sorted[sorted.length - 1] as number];
  return lowest === highest ? format(lowest) : `${format(lowest)} to ${format(highest)}`;
};

/**
 * The pairs behind a paired row, in the order they ran: each pair's ratio and which side ran first,
 * how many pairs reach `targetRatio`, the rates' ranges and, where both children reported their CPU
 * time, the same ratio on CPU time (what waiting for a core does not move).
 */
export const pairedRunsNote = (
  label: string,
  pairs: readonly RunPair[],
  unit: string,
  names: { readonly measured: string; readonly counterpart: string },
  targetRatio?: number,
): string => {
  const spread = pairedSpread(pairs);
  const ratios = pairs.map(pairRatio);
  const firstOf = (pair: RunPair): string =>
    pair.counterpartFirst === undefined ? '' : ` (${pair.counterpartFirst ? names.counterpart : names.measured} first)`;
  const order = pairs.map((pair, index) => `${formatRatio(ratios[index] as number)}${firstOf(pair)}`).join(', ');
  const reaching =
    targetRatio === undefined
      ? ''
      : `; ${ratios.filter((ratio) => ratio >= targetRatio).length} of ${pairs.length} at or above ${formatRatio(targetRatio)}`;
  const cpuRatio = pairedCpuRatio(pairs);
  const cpu =
    cpuRatio === undefined
      ? ''
      : `; on CPU time ${formatRatio(cpuRatio)} (${rangeOf(pairs.map(pairCpuRatio) as number[], formatRatio)})`;
  return (
    `${label}: median of ${pairs.length} back-to-back pair${pairs.length === 1 ? '' : 's'} ${formatRatio(spread.median)}, ` +
    `pairs in order ${order}${reaching}; ${names.measured} ${rangeOf(
      pairs.map((pair) => rateOf(pair.measured)),
      (rate) => formatRate(rate, unit),
    )}, ${names.counterpart} ${rangeOf(
      pairs.map((pair) => rateOf(pair.counterpart)),
      (rate) => formatRate(rate, unit),
    )}${cpu}`
  );
};
