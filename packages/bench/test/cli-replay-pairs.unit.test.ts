import type { ChildResult } from '../src/child-protocol';
import { cliRunResult, countedAsLogEvents } from '../src/cli-replay-case';
import { pairRatio } from '../src/paired-ratio';

const baseline = (lines: number, elapsedMs: number): ChildResult => ({
  case: 'parse-baseline',
  elapsedMs,
  count: lines,
  peakRssBytes: 0,
  sampledPeakRssBytes: 0,
  detail: { lines },
});

describe('a CLI replay run paired with a baseline run over the same log', () => {
  it("counts both in the log's events, so a V0 log's packed lines do not inflate the ratio", () => {
    // 1000 lines holding 3600 events: the command in 2 s, the parse in 1 s is a ratio of 0.5x.
    const replayed = cliRunResult({ elapsedMs: 2000, events: 3600, peakRssBytes: 64 * 1024 ** 2, processes: 1 });
    const parsed = countedAsLogEvents(baseline(1000, 1000), 3600);
    expect(pairRatio({ measured: replayed, counterpart: parsed })).toBeCloseTo(0.5, 5);
    expect(parsed.elapsedMs).toBe(1000);
    expect(parsed.detail).toEqual({ lines: 1000 });
  });

  it("carries the command's CPU time where it was read, so the pair has a CPU-time ratio", () => {
    const replayed = cliRunResult({ elapsedMs: 2000, events: 3600, peakRssBytes: 0, processes: 1, cpuMs: 1800 });
    expect(replayed.detail).toEqual({ processes: 1, cpuMs: 1800 });
  });

  it("carries the command's wall time, events and peak RSS, 0 when the peak is unknown", () => {
    expect(cliRunResult({ elapsedMs: 1500, events: 10, peakRssBytes: undefined, processes: 0 })).toEqual({
      case: 'cli-replay',
      elapsedMs: 1500,
      count: 10,
      peakRssBytes: 0,
      sampledPeakRssBytes: 0,
      detail: { processes: 0 },
    });
  });
});
