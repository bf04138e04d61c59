import type { ChildResult } from '../src/child-protocol';
import { pairCpuRatio, pairRatio, pairedRatio, pairedSpread } from '../src/paired-ratio';

const run = (elapsedMs: number, count = 100): ChildResult => ({
  case: 'send',
  elapsedMs,
  count,
  peakRssBytes: 0,
  sampledPeakRssBytes: 0,
  detail: {},
});

describe('pairedRatio (a case against its counterpart measured back to back, run by run)', () => {
  it("takes the median of each run's own ratio, not the ratio of the two cases' medians", () => {
    // Each case's median run takes 2000 ms (a ratio of medians of 1x); the runs' own ratios are 0.5x, 3x and 0.67x.
    const pairs = [
      { measured: run(2000), counterpart: run(1000) },
      { measured: run(1000), counterpart: run(3000) },
      { measured: run(3000), counterpart: run(2000) },
    ];
    expect(pairedRatio(pairs)).toBeCloseTo(2 / 3, 5);
  });

  it('compares rates, not times: a run that counted more in the same time is faster', () => {
    expect(pairedRatio([{ measured: run(1000, 200), counterpart: run(1000, 100) }])).toBeCloseTo(2, 5);
  });

  it('takes the lower middle ratio of an even count, and refuses no runs', () => {
    const pairs = [1, 2, 3, 4].map((ms) => ({ measured: run(1000), counterpart: run(1000 / ms) }));
    expect(pairedRatio(pairs)).toBeCloseTo(1 / 3, 5);
    expect(() => pairedRatio([])).toThrow(RangeError);
  });
});

describe('pairedSpread and pairCpuRatio (how far the pairs lie apart, and the same ratio on CPU time)', () => {
  const cpuRun = (elapsedMs: number, cpuMs: number): ChildResult => ({ ...run(elapsedMs), detail: { cpuMs } });

  it('names the lowest, the median and the highest ratio, and the pair the median came from', () => {
    const median = { measured: run(1000), counterpart: run(500) };
    const spread = pairedSpread([
      { measured: run(1000), counterpart: run(800) },
      median,
      { measured: run(1000), counterpart: run(250) },
    ]);
    expect(spread.lowest).toBeCloseTo(0.25, 5);
    expect(spread.median).toBeCloseTo(0.5, 5);
    expect(spread.highest).toBeCloseTo(0.8, 5);
    expect(spread.medianPair).toBe(median);
    expect(pairRatio(median)).toBeCloseTo(0.5, 5);
  });

  it('compares items per CPU second, whatever the wall times were', () => {
    expect(pairCpuRatio({ measured: cpuRun(5000, 2000), counterpart: cpuRun(1000, 500) })).toBeCloseTo(0.25, 5);
  });

  it('has no CPU-time ratio when a side reported no CPU time', () => {
    expect(pairCpuRatio({ measured: run(1000), counterpart: cpuRun(1000, 500) })).toBeUndefined();
  });
});
