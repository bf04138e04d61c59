import { type AllStreamResolvedEvent, excludeSystemEvents, START } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import {
  type GlobalPosition,
  isAfter,
  type RecordedEvent,
  type RetryPolicy,
  type Subscription,
  retryDelay,
} from '@teamlog/store';
import { mapClientError } from './client-error-mapping';
import type { ClientAllSubscription, EventStoreDbClient } from './eventstoredb-client';
import { subscriptionDropped } from './eventstoredb-errors';
import { isRetryableFailure } from './failure-outcome';
import { fromClientPosition, toClientPosition } from './global-position-mapping';
import { toRecordedEvent } from './recorded-event-mapping';
import { isSystemEvent } from './system-events';

export interface SubscriptionDrop {
  readonly error: Error;
  /** Drops in a row, counting this one. */
  readonly attempt: number;
  readonly delayMs: number;
  /** Where the next subscription resumes (strictly after), or 'start'. */
  readonly resumeAfter: GlobalPosition | 'start';
}

export interface ResubscribingSubscriptionOptions {
  /** Deliver events strictly after this position, or from the start of `$all`. */
  readonly after: Promise<GlobalPosition | 'start'>;
  readonly resubscribe: RetryPolicy;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly onDropped?: (drop: SubscriptionDrop) => void;
}

const stoppedResult: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * A catch-up subscription to `$all` without system events that survives dropped connections: it
 * resubscribes from the last position it delivered (with backoff), and skips anything at or
 * before that position, whether the server treats the start position as inclusive or not.
 */
export const resubscribingSubscription = (
  client: EventStoreDbClient,
  options: ResubscribingSubscriptionOptions,
): Subscription => {
  const stop = new AbortController();
  const stopped = new Promise<IteratorReturnResult<undefined>>((resolve) =>
    stop.signal.addEventListener('abort', () => resolve(stoppedResult), { once: true }),
  );
  let current: ClientAllSubscription | undefined;
  // Keep an abandoned anchor lookup from surfacing as an unhandled rejection.
  options.after.catch(() => undefined);

  async function* events(): AsyncGenerator<RecordedEvent> {
    let after: GlobalPosition | 'start';
    try {
      after = await options.after;
    } catch (error) {
      throw mapClientError(error, { operation: 'subscribeToAll' });
    }
    let drops = 0;
    while (!stop.signal.aborted) {
      const subscription = client.subscribeToAll({
        fromPosition: after === 'start' ? START : toClientPosition(after),
        filter: excludeSystemEvents(),
      });
      current = subscription;
      const iterator = subscription[Symbol.asyncIterator]();
      let failure: Error | undefined;
      try {
        for (;;) {
          const next: IteratorResult<AllStreamResolvedEvent> = await Promise.race([iterator.next(), stopped]);
          if (next.done === true) break;
          const recorded = next.value.event;
          if (recorded === undefined) continue;
          const position = fromClientPosition(recorded.position);
          if (after !== 'start' && !isAfter(position, after)) continue;
          after = position;
          drops = 0;
          if (isSystemEvent(recorded)) continue;
          const event = toRecordedEvent(recorded);
          if (isLeft(event)) throw event.left;
          yield event.right;
        }
      } catch (error) {
        failure = mapClientError(error, { operation: 'subscribeToAll' });
        if (!isRetryableFailure(failure)) throw failure;
      } finally {
        current = undefined;
        // The client's iterator may never settle once cancelled, so do not wait for it.
        void iterator.return?.()?.catch(() => undefined);
        await subscription.unsubscribe().catch(() => undefined);
      }
      if (stop.signal.aborted) return;
      drops += 1;
      const error = failure ?? new Error('the server ended the subscription');
      if (drops >= options.resubscribe.maxAttempts) throw subscriptionDropped(drops, { cause: error });
      const delayMs = retryDelay(drops, options.resubscribe, options.random);
      options.onDropped?.({ error, attempt: drops, delayMs, resumeAfter: after });
      await options.sleep(delayMs, stop.signal);
    }
  }

  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    unsubscribe: async () => {
      stop.abort();
      await current?.unsubscribe().catch(() => undefined);
      await iterator.return(undefined);
    },
  };
};
