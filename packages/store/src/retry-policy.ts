/*
 * The one retry algorithm of the store adapters: capped doubling back-off with "equal jitter"
 * (half of each wait fixed, half random, so many clients do not retry in step), and the loop that
 * runs an operation again while its failure is one the caller says is worth retrying.
 */

export interface RetryPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Attempts in all, counting the first. */
  readonly maxAttempts: number;
  /**
   * No retry starts later than this after the first attempt began (optional): attempts that each
   * wait for a connect timeout (a host that drops packets) would otherwise make 25 attempts take minutes.
   */
  readonly maxElapsedMs?: number;
}

/** About half a minute of retries (at most 25 attempts, waits doubling from 50 ms to 2 s, none starting after 30 s): long enough for a server restart or a failover. */
export const defaultRetryPolicy: RetryPolicy = {
  initialDelayMs: 50,
  maxDelayMs: 2_000,
  maxAttempts: 25,
  maxElapsedMs: 30_000,
};

/**
 * The wait before retry number `retry` (1 for the first retry): doubling from the initial delay,
 * capped, half of it random. `random` returns a number in [0, 1); tests inject it.
 */
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

/** One retry about to happen, for a log line. */
export interface RetryNotice {
  /** 1 for the first retry. */
  readonly retry: number;
  readonly delayMs: number;
  readonly error: unknown;
}

export interface RetryingOptions {
  readonly policy: RetryPolicy;
  /** Whether a failure may be retried (a dropped connection); anything else is thrown at once. */
  readonly retryable: (error: unknown) => boolean;
  readonly onRetry?: (notice: RetryNotice) => void;
  /** Stop retrying (the last failure is thrown) once this answers true, e.g. when the store closes. */
  readonly stopped?: () => boolean;
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Milliseconds from some fixed point, for `maxElapsedMs` (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * Run `run` until it succeeds, a failure is not retryable, `policy.maxAttempts` attempts have
 * failed, or the next retry would start after `policy.maxElapsedMs` (the last failure is thrown).
 */
export const retrying = async <A>(run: (attempt: number) => Promise<A>, options: RetryingOptions): Promise<A> => {
  const wait = options.sleep ?? sleep;
  const now = options.now ?? Date.now;
  const started = now();
  const budget = options.policy.maxElapsedMs ?? Number.POSITIVE_INFINITY;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!options.retryable(error) || attempt >= options.policy.maxAttempts || options.stopped?.() === true)
        throw error;
      const delayMs = retryDelay(attempt, options.policy, options.random);
      if (now() + delayMs - started > budget) throw error;
      options.onRetry?.({ retry: attempt, delayMs, error });
      await wait(delayMs);
    }
  }
};
