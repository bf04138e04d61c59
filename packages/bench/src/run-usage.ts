/** What the kernel says a stretch of a process's work cost besides its wall time. */
export interface RunUsage {
  /** User + system CPU time, in ms. */
  readonly cpuMs: number;
  /** Times the kernel took the core away while the process could run (another process's turn). */
  readonly preempted: number;
  readonly majorFaults: number;
}

/** The difference between two `process.resourceUsage()` readings (CPU times in microseconds). */
export const runUsageBetween = (before: NodeJS.ResourceUsage, after: NodeJS.ResourceUsage): RunUsage => ({
  cpuMs: (after.userCPUTime - before.userCPUTime + after.systemCPUTime - before.systemCPUTime) / 1000,
  preempted: after.involuntaryContextSwitches - before.involuntaryContextSwitches,
  majorFaults: after.majorPageFault - before.majorPageFault,
});

/** A run's usage as the detail fields a child reports (`cpuMs`, `preempted`, `majorFaults`). */
export const usageDetail = (usage: RunUsage): Record<string, number> => ({
  cpuMs: usage.cpuMs,
  preempted: usage.preempted,
  majorFaults: usage.majorFaults,
});
