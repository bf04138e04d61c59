export interface BackoffOptions {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Attempts in a row before giving up; the first try counts as one. */
  readonly maxAttempts: number;
}

export const defaultAppendRetry: BackoffOptions = { initialDelayMs: 100, maxDelayMs: 2_000, maxAttempts: 5 };
export const defaultResubscribe: BackoffOptions = { initialDelayMs: 100, maxDelayMs: 5_000, maxAttempts: 30 };

/**
 * The wait before retry number `retry` (1 for the first retry): doubling from the initial delay,
 * capped, with "equal jitter" (half fixed, half random) so many clients do not retry in step.
 * `random` returns a number in [0, 1) and is injected so tests are deterministic.
 */
export const backoffDelay = (retry: number, options: BackoffOptions, random: () => number): number => {
  const exponential = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.max(0, retry - 1));
  return exponential / 2 + (exponential / 2) * random();
};

/** Waits `ms`, or less when the signal aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
