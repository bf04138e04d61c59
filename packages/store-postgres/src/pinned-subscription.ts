import type { GlobalPosition, RecordedEvent, Subscription } from '@teamlog/store';
import { type PgSnapshot, visibleInSnapshot } from './snapshot-visibility';

/** Where a subscription starts: strictly after `after`, leaving out events already visible in a snapshot (for "from the end"). */
export interface SubscriptionStart {
  readonly after: GlobalPosition | undefined;
  readonly alreadyVisible: PgSnapshot | undefined;
}

/**
 * A subscription whose start is looked up first (the port's subscribeToAll returns at once).
 * Events of transactions visible in `alreadyVisible` were committed before the subscription and
 * are left out; the others, even if ordered before a later event, are delivered.
 */
export const pinnedSubscription = (
  start: Promise<SubscriptionStart>,
  open: (after: GlobalPosition | undefined) => Subscription,
): Subscription => {
  let inner: Subscription | undefined;
  let stopped = false;
  // Keep an abandoned lookup from surfacing as an unhandled rejection.
  start.catch(() => undefined);
  async function* events(): AsyncGenerator<RecordedEvent> {
    const { after, alreadyVisible } = await start;
    if (stopped) return;
    inner = open(after);
    for await (const event of inner) {
      if (alreadyVisible !== undefined && visibleInSnapshot(alreadyVisible, event.position.commit)) continue;
      yield event;
    }
  }
  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    unsubscribe: async () => {
      stopped = true;
      await inner?.unsubscribe();
      await iterator.return(undefined);
    },
  };
};
