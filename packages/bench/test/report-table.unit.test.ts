import {
  formatMiB,
  formatRate,
  formatRatio,
  memoryRow,
  ratePerSecond,
  renderTable,
  throughputRatio,
  throughputRow,
  verdictOf,
} from '../src/report-table';

describe('report table', () => {
  it('computes rates per second and ratios against the baseline', () => {
    expect(ratePerSecond(500, 250)).toBe(2000);
    expect(ratePerSecond(10, 0)).toBe(0);
    expect(throughputRatio(250, 1000)).toBe(0.25);
    expect(throughputRatio(5, 0)).toBe(0);
  });

  it('passes a ratio target at the bound and misses it below', () => {
    const target = { kind: 'ratio-at-least', ratio: 0.5 } as const;
    expect(verdictOf(target, 0.5)).toBe('PASS');
    expect(verdictOf(target, 0.4999)).toBe('MISS');
  });

  it('passes a memory target only strictly below the limit', () => {
    const target = { kind: 'bytes-below', bytes: 256 * 1024 ** 2 } as const;
    expect(verdictOf(target, 256 * 1024 ** 2 - 1)).toBe('PASS');
    expect(verdictOf(target, 256 * 1024 ** 2)).toBe('MISS');
    expect(verdictOf({ kind: 'none' }, 0)).toBe('-');
  });

  it('formats rates with thousands separators, ratios and MiB', () => {
    expect(formatRate(1234567.4, 'ev')).toBe('1,234,567 ev/s');
    expect(formatRatio(0.5)).toBe('0.50x');
    expect(formatRatio(0.0421)).toBe('0.042x');
    expect(formatMiB(3 * 1024 ** 2)).toBe('3.0 MiB');
  });

  it('fills a throughput row from the measured and baseline rates', () => {
    const row = throughputRow('Replay', 'ev', 300, 'JSON.parse', 1000, { kind: 'ratio-at-least', ratio: 0.25 });
    expect(row).toEqual({
      measure: 'Replay',
      value: '300 ev/s',
      baseline: 'JSON.parse 1,000 ev/s',
      ratio: '0.30x',
      target: '>= 0.25x',
      verdict: 'PASS',
    });
    expect(memoryRow('RSS', 300 * 1024 ** 2, { kind: 'bytes-below', bytes: 256 * 1024 ** 2 })).toMatchObject({
      value: '300.0 MiB',
      target: '< 256.0 MiB',
      verdict: 'MISS',
    });
  });

  it('renders a Markdown table whose columns line up', () => {
    const rows = [
      throughputRow('Replay, in-memory', 'ev', 300, 'JSON.parse', 1000, { kind: 'ratio-at-least', ratio: 0.5 }),
      memoryRow('Peak RSS', 100 * 1024 ** 2, { kind: 'bytes-below', bytes: 256 * 1024 ** 2 }),
    ];
    const lines = renderTable(rows).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^\| Measure +\| Measured +\| Baseline \(same run\) +\| Ratio +\| Target +\| PASS\/MISS \|$/,
    );
    expect(lines[1]).toMatch(/^\|-+(\|-+){5}\|$/);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(lines[2]).toContain('| MISS');
    expect(lines[3]).toContain('| PASS');
  });
});
