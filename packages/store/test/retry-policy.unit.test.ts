import { retryDelay, retrying, sleep } from '@teamlog/store';

const policy = { initialDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 10 };

class Dropped extends Error {}

describe('retry policy', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    const top = (retry: number) => retryDelay(retry, policy, () => 0.999_999);
    expect([1, 2, 3, 4, 5, 6].map((retry) => Math.round(top(retry)))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('keeps at least half of each delay whatever the jitter', () => {
    expect(retryDelay(1, policy, () => 0)).toBe(50);
    expect(retryDelay(4, policy, () => 0)).toBe(400);
    expect(retryDelay(4, policy, () => 0.5)).toBe(600);
  });

  it('ends a wait early when aborted', async () => {
    const stop = new AbortController();
    const waiting = sleep(60_000, stop.signal);
    stop.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe('retrying', () => {
  const waits: number[] = [];
  const options = {
    policy: { ...policy, maxAttempts: 4 },
    retryable: (error: unknown) => error instanceof Dropped,
    random: () => 0,
    sleep: async (ms: number) => void waits.push(ms),
  };
  beforeEach(() => waits.splice(0));

  it("runs again after a retryable failure, waiting the policy's delays, and returns the first success", async () => {
    const attempts: number[] = [];
    const result = await retrying(async (attempt) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Dropped();
      return 'done';
    }, options);
    expect({ result, attempts, waits }).toEqual({ result: 'done', attempts: [1, 2, 3], waits: [50, 100] });
  });

  it("throws the last failure after the policy's attempts, telling each retry", async () => {
    const notices: number[] = [];
    const last = new Dropped('still down');
    await expect(
      retrying(async () => Promise.reject(last), { ...options, onRetry: (notice) => notices.push(notice.retry) }),
    ).rejects.toBe(last);
    expect(notices).toEqual([1, 2, 3]);
  });

  it('throws a failure that is not retryable at once', async () => {
    const refused = new Error('refused');
    let attempts = 0;
    await expect(
      retrying(async () => {
        attempts += 1;
        throw refused;
      }, options),
    ).rejects.toBe(refused);
    expect({ attempts, waits }).toEqual({ attempts: 1, waits: [] });
  });

  it("starts no retry after the policy's time budget, however many attempts are left", async () => {
    let clock = 0;
    let attempts = 0;
    const slow = {
      ...options,
      policy: { ...options.policy, maxAttempts: 100, maxElapsedMs: 25_000 },
      now: () => clock,
    };
    // Each attempt waits for a 10 s connect timeout, as against a host that drops packets.
    await expect(
      retrying(async () => {
        attempts += 1;
        clock += 10_000;
        throw new Dropped();
      }, slow),
    ).rejects.toBeInstanceOf(Dropped);
    // Retries began at 10 s and 20 s; a third would begin after 30 s, past the budget.
    expect(attempts).toBe(3);
  });

  it('stops retrying once stopped says so', async () => {
    let attempts = 0;
    await expect(
      retrying(
        async () => {
          attempts += 1;
          throw new Dropped();
        },
        { ...options, stopped: () => attempts >= 2 },
      ),
    ).rejects.toBeInstanceOf(Dropped);
    expect(attempts).toBe(2);
  });
});
