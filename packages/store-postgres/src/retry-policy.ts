export interface RetryPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Attempts in all, counting the first. */
  readonly maxAttempts: number;
}

/** About half a minute of retries: long enough for a server restart or a failover. */
export const defaultRetryPolicy: RetryPolicy = { initialDelayMs: 50, maxDelayMs: 2_000, maxAttempts: 25 };

/** The wait before retry number `retry` (1 for the first): doubling, capped, half of it random so clients spread out. */
export const retryDelay = (retry: number, policy: RetryPolicy, random: () => number = Math.random): number => {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, retry - 1));
  return exponential / 2 + (exponential / 2) * random();
};

/** Waits `ms`, or less when the signal aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
