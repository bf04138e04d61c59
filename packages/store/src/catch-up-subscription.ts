import type { RecordedEvent, Subscription } from './event-store';
import type { GlobalPosition } from './global-position';

export interface CatchUpSource {
  /** Events strictly after `after` (or from the start), at most `maxCount`, in global order. */
  readonly readAfter: (after: GlobalPosition | undefined, maxCount: number) => Promise<readonly RecordedEvent[]>;
  /** A counter of local appends, read before each page so no wake-up between read and wait is lost. */
  readonly appendCount: () => number;
  /** Resolves when the count has moved past `seen` (or a poll tick, for other writers), or on abort. */
  readonly waitForAppend: (seen: number, signal: AbortSignal) => Promise<void>;
}

const pageSize = 512;

/** Catch up from a position, then keep delivering new appends; shared by the local adapters. */
export const catchUpSubscription = (source: CatchUpSource, start: GlobalPosition | undefined): Subscription => {
  const stop = new AbortController();
  let position = start;
  async function* events(): AsyncGenerator<RecordedEvent> {
    while (!stop.signal.aborted) {
      const seen = source.appendCount();
      const page = await source.readAfter(position, pageSize);
      for (const event of page) {
        if (stop.signal.aborted) return;
        position = event.position;
        yield event;
      }
      if (page.length < pageSize) await source.waitForAppend(seen, stop.signal);
    }
  }
  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    unsubscribe: async () => {
      stop.abort();
      await iterator.return(undefined);
    },
  };
};

/** A wait that ends on the next notify, on abort, or after `pollMs` (to see other processes). */
export class AppendSignal {
  private waiters = new Set<() => void>();
  private appends = 0;

  get count(): number {
    return this.appends;
  }

  notify(): void {
    this.appends += 1;
    // Every commit notifies; most have no subscription waiting.
    if (this.waiters.size === 0) return;
    const waiting = this.waiters;
    this.waiters = new Set();
    waiting.forEach((wake) => wake());
  }

  wait(seen: number, signal: AbortSignal, pollMs?: number): Promise<void> {
    if (signal.aborted || this.appends !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        if (timer !== undefined) clearTimeout(timer);
        resolve();
      };
      const timer = pollMs === undefined ? undefined : setTimeout(done, pollMs);
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
