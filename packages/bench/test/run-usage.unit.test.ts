import { runUsageBetween, usageDetail } from '../src/run-usage';

const usage = (cpuMicros: number, involuntary: number, majorFaults: number): NodeJS.ResourceUsage => ({
  ...process.resourceUsage(),
  userCPUTime: cpuMicros * 0.75,
  systemCPUTime: cpuMicros * 0.25,
  involuntaryContextSwitches: involuntary,
  majorPageFault: majorFaults,
});

describe('runUsageBetween (what a child reports its measured work cost besides wall time)', () => {
  it('takes user + system CPU in ms, the preemptions and the major faults between two readings', () => {
    const between = runUsageBetween(usage(1_000_000, 10, 1), usage(1_600_000, 35, 3));
    expect(between).toEqual({ cpuMs: 600, preempted: 25, majorFaults: 2 });
    expect(usageDetail(between)).toEqual({ cpuMs: 600, preempted: 25, majorFaults: 2 });
  });
});
