import type { ChildResult } from '../src/child-protocol';
import { runSpread } from '../src/run-spread';

const run = (count: number, elapsedMs: number): ChildResult => ({
  case: 'postgres-send',
  elapsedMs,
  count,
  peakRssBytes: 0,
  sampledPeakRssBytes: 0,
  detail: {},
});

describe('runSpread (how far the interleaved runs of one bench case lie apart)', () => {
  it('names the slowest and the fastest rate, whatever the order, and their ratio', () => {
    expect(runSpread('send', [run(3000, 1000), run(1000, 1000), run(2000, 1000)], 'msg')).toBe(
      'send: 1,000 msg/s to 3,000 msg/s over 3 runs (3.00x)',
    );
  });

  it('refuses no runs', () => {
    expect(() => runSpread('send', [], 'msg')).toThrow(RangeError);
  });
});
