import { backoffDelay, sleep } from '@teamlog/store-eventstoredb';

const options = { initialDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 10 };

describe('backoff', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    const top = (retry: number) => backoffDelay(retry, options, () => 0.999_999);
    expect([1, 2, 3, 4, 5, 6].map((retry) => Math.round(top(retry)))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('keeps at least half of each delay whatever the jitter', () => {
    expect(backoffDelay(1, options, () => 0)).toBe(50);
    expect(backoffDelay(4, options, () => 0)).toBe(400);
    expect(backoffDelay(4, options, () => 0.5)).toBe(600);
  });

  it('ends a wait early when aborted', async () => {
    const stop = new AbortController();
    const waiting = sleep(60_000, stop.signal);
    stop.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
