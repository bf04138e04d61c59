import type { ChildResult } from '../src/child-protocol';
import type { RunPair } from '../src/paired-ratio';
import { pairedRunsNote, pairedThroughputRow } from '../src/paired-row';

const run = (elapsedMs: number, cpuMs?: number): ChildResult => ({
  case: 'replay',
  elapsedMs,
  count: 1000,
  peakRssBytes: 0,
  sampledPeakRssBytes: 0,
  detail: cpuMs === undefined ? {} : { cpuMs },
});

// Ratios 0.5x, 0.4x and 0.6x, in that order: the median pair is the first.
const pairs: readonly RunPair[] = [
  { measured: run(2000, 1800), counterpart: run(1000, 700), counterpartFirst: true },
  { measured: run(2500, 2000), counterpart: run(1000, 800), counterpartFirst: false },
  { measured: run(1000, 900), counterpart: run(600, 500), counterpartFirst: true },
];
const target = { kind: 'ratio-at-least', ratio: 0.5 } as const;

describe('pairedThroughputRow (a replay row over back-to-back pairs)', () => {
  it("shows the median pair's rates and ratio, the lowest and highest pair, and judges the median", () => {
    expect(pairedThroughputRow('Replay', 'ev', 'JSON.parse', pairs, target)).toEqual({
      measure: 'Replay',
      value: '500 ev/s',
      baseline: 'JSON.parse 1,000 ev/s',
      ratio: '0.50x (0.40x-0.60x, 3 pairs; CPU 0.40x)',
      target: '>= 0.50x',
      verdict: 'PASS',
    });
  });

  it('misses when the median pair misses, however well another pair did', () => {
    const row = pairedThroughputRow('Replay', 'ev', 'JSON.parse', pairs.slice(1), target);
    expect(row.verdict).toBe('MISS');
    expect(row.ratio).toBe('0.40x (0.40x-0.60x, 2 pairs; CPU 0.40x)');
  });

  it('shows one pair without a spread, and no CPU-time ratio where a side did not report its CPU time', () => {
    expect(pairedThroughputRow('Replay', 'ev', 'JSON.parse', pairs.slice(0, 1), target).ratio).toBe(
      '0.50x (CPU 0.39x)',
    );
    const withoutCpu = pairs.map((pair) => ({ ...pair, counterpart: run(pair.counterpart.elapsedMs) }));
    expect(pairedThroughputRow('Replay', 'ev', 'JSON.parse', withoutCpu, target).ratio).toBe(
      '0.50x (0.40x-0.60x, 3 pairs)',
    );
    expect(pairedThroughputRow('Replay', 'ev', 'JSON.parse', withoutCpu.slice(0, 1), target).ratio).toBe('0.50x');
  });
});

describe('pairedRunsNote (the pairs behind a paired row)', () => {
  const names = { measured: 'replay', counterpart: 'JSON.parse' };

  it('lists the pairs in the order they ran with which side ran first, how many reach the target, the rates and the CPU-time ratios', () => {
    expect(pairedRunsNote('replay vs JSON.parse', pairs, 'ev', names, 0.5)).toBe(
      'replay vs JSON.parse: median of 3 back-to-back pairs 0.50x, pairs in order 0.50x (JSON.parse first), ' +
        '0.40x (replay first), 0.60x (JSON.parse first); 2 of 3 at or above 0.50x; ' +
        'replay 400 ev/s to 1,000 ev/s, JSON.parse 1,000 ev/s to 1,667 ev/s; on CPU time 0.40x (0.39x to 0.56x)',
    );
  });

  it('leaves the CPU-time ratio out when a side did not report its CPU time', () => {
    const withoutCpu = pairs.map((pair) => ({ ...pair, measured: run(pair.measured.elapsedMs) }));
    expect(pairedRunsNote('replay vs JSON.parse', withoutCpu, 'ev', names)).not.toContain('CPU');
  });
});
