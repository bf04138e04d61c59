import type { ChildRequest, ChildResult } from './child-protocol';
import { type ReportRow, formatMiB, formatSeconds } from './report-table';

/** What one bench section adds to the report. */
export interface SectionOutcome {
  readonly rows: readonly ReportRow[];
  /** Details behind the rows: times, counts, memory, checks. */
  readonly notes: readonly string[];
  /** Rendered CPU profile summaries of the cases that missed. */
  readonly profiles: readonly string[];
}

/** What a section may use: progress output, and profiling of a case that missed its target. */
export interface SectionContext {
  readonly progress: (text: string) => void;
  /** False with --no-profile: `profile` then does nothing. */
  readonly profiling: boolean;
  /** Run the case again under the CPU profiler; returns the rendered summary (no lines when profiling is off). */
  readonly profile: (title: string, request: ChildRequest) => Promise<readonly string[]>;
}

const detailText = (detail: ChildResult['detail']): string =>
  Object.entries(detail)
    .map(([key, value]) => `${key}=${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(2) : value}`)
    .join(' ');

/** One line per measurement: what it counted, how long it took, its peak RSS and its checks. */
export const noteOf = (label: string, result: ChildResult, unit: string): string =>
  `${label}: ${result.count.toLocaleString('en-US')} ${unit} in ${formatSeconds(result.elapsedMs)}, peak RSS ${formatMiB(result.peakRssBytes)} (sampled ${formatMiB(result.sampledPeakRssBytes)}); ${detailText(result.detail)}`;
