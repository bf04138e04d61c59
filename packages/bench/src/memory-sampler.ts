/** One reading of the process's memory (the fields of `process.memoryUsage()` the bench reports). */
export interface MemoryReading {
  readonly rss: number;
  readonly heapUsed: number;
  /** Memory of Buffers and other objects outside the V8 heap. */
  readonly external: number;
}

/** The largest value of each field seen by sampling (each may come from a different sample). */
export interface MemorySamples {
  readonly peakRssBytes: number;
  readonly peakHeapUsedBytes: number;
  readonly peakExternalBytes: number;
  readonly samples: number;
}

export const noSamples: MemorySamples = { peakRssBytes: 0, peakHeapUsedBytes: 0, peakExternalBytes: 0, samples: 0 };

export const observeMemory = (seen: MemorySamples, reading: MemoryReading): MemorySamples => ({
  peakRssBytes: Math.max(seen.peakRssBytes, reading.rss),
  peakHeapUsedBytes: Math.max(seen.peakHeapUsedBytes, reading.heapUsed),
  peakExternalBytes: Math.max(seen.peakExternalBytes, reading.external),
  samples: seen.samples + 1,
});

export interface RunningMemorySampler {
  /** Stop sampling (one last sample is taken) and return what was seen. */
  stop(): MemorySamples;
}

/**
 * Sample `process.memoryUsage()` every `intervalMs` while work runs. Samples only land between
 * event-loop turns, so the kernel's VmHWM (proc-status.ts) is the authoritative RSS peak; the
 * samples cross-check it and show how much of it is V8 heap and how much Buffers.
 */
export const startMemorySampling = (
  intervalMs: number,
  read: () => MemoryReading = () => process.memoryUsage(),
): RunningMemorySampler => {
  let seen = observeMemory(noSamples, read());
  const timer = setInterval(() => {
    seen = observeMemory(seen, read());
  }, intervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      seen = observeMemory(seen, read());
      return seen;
    },
  };
};
