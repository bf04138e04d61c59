import type { RecordedEvent, Subscription } from '@teamlog/store';

export interface Reader {
  readonly events: RecordedEvent[];
  /** Resolves once `predicate` holds for the events read so far (or rejects after `timeoutMs`). */
  readonly until: (predicate: (events: readonly RecordedEvent[]) => boolean, timeoutMs?: number) => Promise<void>;
  readonly stop: () => Promise<void>;
}

/** Reads a subscription in the background, keeping every event of the streams `include` accepts. */
export const readInBackground = (
  subscription: Subscription,
  include: (event: RecordedEvent) => boolean = () => true,
): Reader => {
  const events: RecordedEvent[] = [];
  let failure: unknown;
  const running = (async () => {
    for await (const event of subscription) if (include(event)) events.push(event);
  })().catch((error: unknown) => {
    failure = error;
  });
  return {
    events,
    until: async (predicate, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (failure !== undefined) throw failure;
        if (Date.now() > deadline)
          throw new Error(
            `the subscription delivered ${events.length} events and the awaited state did not come within ${timeoutMs} ms`,
          );
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    stop: async () => {
      await subscription.unsubscribe();
      await running;
    },
  };
};
