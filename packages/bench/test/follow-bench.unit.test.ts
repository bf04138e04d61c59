import { EventStreamParser } from '../src/event-stream-parser';
import { percentile } from '../src/percentiles';
import { procStatChildrenCpuMs, procStatCpuMs } from '../src/proc-cpu';
import { formatTarget, limitRow, verdictOf } from '../src/report-table';

describe('the follow bench', () => {
  it("reads a process's user + system CPU time from /proc/<pid>/stat, a command name with spaces and parentheses too", () => {
    const fields = (name: string) =>
      `4242 (${name}) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 37 0 0 20 0 11 0 12345 1000000 5000`;
    expect(procStatCpuMs(fields('node'))).toBe(2870);
    expect(procStatCpuMs(fields('my (odd) node'))).toBe(2870);
    expect(procStatCpuMs('garbage')).toBeUndefined();
  });

  it("reads the CPU time of a process's waited-for children from fields 16 and 17 of its stat line", () => {
    const line = '4242 (my (odd) node) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 37 410 90 20 0 11 0 12345';
    expect(procStatChildrenCpuMs(line)).toBe(5000);
    expect(procStatChildrenCpuMs('garbage')).toBeUndefined();
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('splits a server-sent event stream into events as its chunks arrive', () => {
    const parser = new EventStreamParser();
    expect(parser.push('retry: 2000\n\nevent: hello\nda')).toEqual([]);
    expect(parser.push('ta: {"checkpoint":null}\n\nevent: change\ndata: {"checkpoint":"5/5"}\n\n')).toEqual([
      { event: 'hello', data: '{"checkpoint":null}' },
      { event: 'change', data: '{"checkpoint":"5/5"}' },
    ]);
  });

  it('holds a measurement to an absolute limit', () => {
    const target = { kind: 'below', limit: 200, unit: 'ms' } as const;
    expect(formatTarget(target)).toBe('< 200 ms');
    expect(verdictOf(target, 199.9)).toBe('PASS');
    expect(verdictOf(target, 200)).toBe('MISS');
    expect(limitRow('Latency', '12 ms', 12, target)).toEqual({
      measure: 'Latency',
      value: '12 ms',
      baseline: '-',
      ratio: '-',
      target: '< 200 ms',
      verdict: 'PASS',
    });
  });
});
