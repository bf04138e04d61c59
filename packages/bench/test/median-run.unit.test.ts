import type { ChildResult } from '../src/child-protocol';
import { medianRun } from '../src/median-run';

const run = (elapsedMs: number): ChildResult => ({
  case: 'parse-baseline',
  elapsedMs,
  count: 100,
  peakRssBytes: 0,
  sampledPeakRssBytes: 0,
  detail: {},
});

describe('medianRun (the baseline among runs before, between and after the replays)', () => {
  it('picks the run with the middle elapsed time, whatever the order', () => {
    expect(medianRun([run(4200), run(2400), run(2600)]).elapsedMs).toBe(2600);
  });

  it('picks the lower middle run of an even count, and the only run of one', () => {
    expect(medianRun([run(3), run(1), run(4), run(2)]).elapsedMs).toBe(2);
    expect(medianRun([run(7)]).elapsedMs).toBe(7);
  });

  it('refuses no runs', () => {
    expect(() => medianRun([])).toThrow(RangeError);
  });
});
