import type { ChildResult } from './child-protocol';
import { formatRate, ratePerSecond } from './report-table';

/** How far the runs of one case spread: their slowest and fastest rate, and the fastest over the slowest. */
export const runSpread = (label: string, runs: readonly ChildResult[], unit: string): string => {
  if (runs.length === 0) throw new RangeError('a spread needs at least one run');
  const rates = runs.map((run) => ratePerSecond(run.count, run.elapsedMs)).sort((a, b) => a - b);
  const slowest = rates[0] as number;
  const fastest = rates[rates.length - 1] as number;
  return `${label}: ${formatRate(slowest, unit)} to ${formatRate(fastest, unit)} over ${rates.length} runs (${(fastest / slowest).toFixed(2)}x)`;
};
