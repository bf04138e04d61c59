import type { Client } from 'pg';
import { AppendListener } from '@teamlog/store-postgres';

/* The LISTEN connection's reconnect loop, on connections that never come up (a server that is down). */

/** Wait (generously: a loaded machine) until `condition` holds, checking between turns of the event loop. */
const eventually = async (condition: () => boolean, limitMs = 60_000): Promise<void> => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
};

const refusedConnection = (): Client =>
  ({
    on: () => undefined,
    connect: () => Promise.reject(new Error('connect ECONNREFUSED')),
    query: () => Promise.reject(new Error('not connected')),
    end: () => Promise.resolve(),
  }) as unknown as Client;

describe('AppendListener reconnecting to a server that is down', () => {
  it('leaves no stop listener behind per failed attempt, however many it makes', async () => {
    // Net 'abort' listeners added to any signal: one attempt's (and one back-off's) at most, not one per attempt.
    let held = 0;
    const add = jest.spyOn(AbortSignal.prototype, 'addEventListener').mockImplementation(function (
      this: AbortSignal,
      ...args: Parameters<AbortSignal['addEventListener']>
    ) {
      if (args[0] === 'abort') held += 1;
      return EventTarget.prototype.addEventListener.apply(this, args);
    });
    const remove = jest.spyOn(AbortSignal.prototype, 'removeEventListener').mockImplementation(function (
      this: AbortSignal,
      ...args: Parameters<AbortSignal['removeEventListener']>
    ) {
      if (args[0] === 'abort') held -= 1;
      return EventTarget.prototype.removeEventListener.apply(this, args);
    });
    let attempts = 0;
    const listener = new AppendListener({
      connect: () => {
        attempts += 1;
        return refusedConnection();
      },
      onAppended: () => undefined,
      retry: { initialDelayMs: 0, maxDelayMs: 0, maxAttempts: Number.POSITIVE_INFINITY },
      log: () => undefined,
      describeError: (error) => String(error),
    });
    try {
      listener.start();
      await eventually(() => attempts >= 30);
      expect(held).toBeLessThanOrEqual(2);
    } finally {
      await listener.close();
      add.mockRestore();
      remove.mockRestore();
    }
  });
});
