/* Ratios, verdicts and the table the bench prints (pure: numbers in, text out). */

export type Target =
  | { readonly kind: 'ratio-at-least'; readonly ratio: number }
  | { readonly kind: 'bytes-below'; readonly bytes: number }
  /** An absolute limit in some unit (a latency in ms, a CPU share in %), for what has no baseline to be a ratio of. */
  | { readonly kind: 'below'; readonly limit: number; readonly unit: string }
  | { readonly kind: 'count-at-most'; readonly count: number }
  | { readonly kind: 'none' };

export type Verdict = 'PASS' | 'MISS' | '-';

export interface ReportRow {
  readonly measure: string;
  readonly value: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly target: string;
  readonly verdict: Verdict;
}

/** Items per second; 0 when nothing was timed. */
export const ratePerSecond = (count: number, elapsedMs: number): number =>
  elapsedMs <= 0 ? 0 : (count * 1000) / elapsedMs;

/** How the measured rate compares with the baseline's: 1 is as fast, 0.5 half as fast. */
export const throughputRatio = (measured: number, baseline: number): number =>
  baseline <= 0 ? 0 : measured / baseline;

export const verdictOf = (target: Target, measured: number): Verdict => {
  switch (target.kind) {
    case 'ratio-at-least':
      return measured >= target.ratio ? 'PASS' : 'MISS';
    case 'bytes-below':
      return measured < target.bytes ? 'PASS' : 'MISS';
    case 'below':
      return measured < target.limit ? 'PASS' : 'MISS';
    case 'count-at-most':
      return measured <= target.count ? 'PASS' : 'MISS';
    case 'none':
      return '-';
    default: {
      const unreachable: never = target;
      return unreachable;
    }
  }
};

const grouped = (value: number): string => Math.round(value).toLocaleString('en-US');

export const formatRate = (perSecond: number, unit: string): string => `${grouped(perSecond)} ${unit}/s`;
export const formatRatio = (ratio: number): string => `${ratio.toFixed(ratio < 0.1 ? 3 : 2)}x`;
export const formatMiB = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
export const formatSize = (bytes: number): string =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GiB` : formatMiB(bytes);
export const formatSeconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export const formatTarget = (target: Target): string => {
  switch (target.kind) {
    case 'ratio-at-least':
      return `>= ${target.ratio.toFixed(2)}x`;
    case 'bytes-below':
      return `< ${formatMiB(target.bytes)}`;
    case 'below':
      return `< ${target.limit} ${target.unit}`;
    case 'count-at-most':
      return `<= ${target.count}`;
    case 'none':
      return '-';
    default: {
      const unreachable: never = target;
      return unreachable;
    }
  }
};

/** A throughput row: the measured rate against a baseline rate measured in the same run. */
export const throughputRow = (
  measure: string,
  unit: string,
  rate: number,
  baselineName: string,
  baselineRate: number,
  target: Target,
): ReportRow => {
  const ratio = throughputRatio(rate, baselineRate);
  return {
    measure,
    value: formatRate(rate, unit),
    baseline: `${baselineName} ${formatRate(baselineRate, unit)}`,
    ratio: formatRatio(ratio),
    target: formatTarget(target),
    verdict: verdictOf(target, ratio),
  };
};

export const memoryRow = (measure: string, peakBytes: number, target: Target): ReportRow => ({
  measure,
  value: formatMiB(peakBytes),
  baseline: '-',
  ratio: '-',
  target: formatTarget(target),
  verdict: verdictOf(target, peakBytes),
});

/** A measurement held to an absolute limit (`below`), or to none; `value` is the measurement as shown. */
export const limitRow = (measure: string, value: string, measured: number, target: Target): ReportRow => ({
  measure,
  value,
  baseline: '-',
  ratio: '-',
  target: formatTarget(target),
  verdict: verdictOf(target, measured),
});

const headings: readonly string[] = ['Measure', 'Measured', 'Baseline (same run)', 'Ratio', 'Target', 'PASS/MISS'];
const cellsOf = (row: ReportRow): readonly string[] => [
  row.measure,
  row.value,
  row.baseline,
  row.ratio,
  row.target,
  row.verdict,
];

/** A Markdown table padded to line up in a terminal too. */
export const renderTable = (rows: readonly ReportRow[]): string => {
  const all = [headings, ...rows.map(cellsOf)];
  const widths = headings.map((_, column) => Math.max(...all.map((cells) => (cells[column] as string).length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(headings), rule, ...rows.map((row) => line(cellsOf(row)))].join('\n');
};
