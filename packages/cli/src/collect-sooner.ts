import { setFlagsFromString } from 'node:v8';
import { nodeFlagGiven } from './node-flag-given';

/**
 * How far V8 lets the old generation grow past what survived its last collection, in percent
 * (V8's own choice is about 100-300%), by what the command keeps (docs/historical-logs.md#memory).
 */
export const oldGenerationGrowth = {
  /** An import into SQLite keeps a bounded working set (one chunk, docs/rules.md#one-pass-import): what V8 would let grow is garbage. */
  boundedWorkingSet: 20,
  /**
   * A one-shot `:memory:` replay keeps its views, which grow with the log: room to double, so a
   * full collection (which marks all the views) comes every doubling, not every 30%. At 30% the
   * big Lead log took 13 full collections and 8-15% more CPU for the same peak (docs/benchmarks.md,
   * _The one-shot replay's line path and its full collections_).
   */
  growingViews: 100,
} as const;

/**
 * Have V8 grow the old generation by `percent` of what survives a collection instead of about 2x.
 * Not a limit: past any size Node still grows the heap, nothing runs out of memory. A
 * `--heap-growing-percent` given to Node is left alone.
 */
export const collectSooner = (percent: number): void => {
  if (!nodeFlagGiven('--heap-growing-percent', process.execArgv, process.env.NODE_OPTIONS))
    setFlagsFromString(`--heap-growing-percent=${percent}`);
};
