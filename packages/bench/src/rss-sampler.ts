/** The largest RSS seen by sampling, and how many samples saw it. */
export interface RssSamples {
  readonly peakBytes: number;
  readonly samples: number;
}

export const noSamples: RssSamples = { peakBytes: 0, samples: 0 };

export const observeRss = (seen: RssSamples, rssBytes: number): RssSamples => ({
  peakBytes: Math.max(seen.peakBytes, rssBytes),
  samples: seen.samples + 1,
});

export interface RunningRssSampler {
  /** Stop sampling (one last sample is taken) and return what was seen. */
  stop(): RssSamples;
}

/**
 * Sample `process.memoryUsage().rss` every `intervalMs` while work runs. Samples only land
 * between event-loop turns, so the kernel's VmHWM (proc-status.ts) is the authoritative peak;
 * the samples are the cross-check where /proc is missing.
 */
export const startRssSampling = (intervalMs: number, readRss: () => number = () => process.memoryUsage().rss): RunningRssSampler => {
  let seen = observeRss(noSamples, readRss());
  const timer = setInterval(() => {
    seen = observeRss(seen, readRss());
  }, intervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      seen = observeRss(seen, readRss());
      return seen;
    },
  };
};
