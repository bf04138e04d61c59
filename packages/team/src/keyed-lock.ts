import { sendAborted } from './team-log-errors';

/** Work waiting for its key: started when the work before it settles, dropped when its signal fires first. */
interface Waiter {
  readonly start: () => void;
}

/** A held key: the work waiting behind the one running, oldest first (made on the first waiter). */
interface Holder {
  waiting: Waiter[] | undefined;
}

/**
 * One FIFO queue per key: work on a key runs one at a time, in call order. It orders the writers of
 * one process; other processes are ordered by the store's optimistic concurrency.
 */
export class KeyedLock<K> {
  private readonly holders = new Map<K, Holder>();

  /** Whether work on the key runs or waits now. */
  isHeld(key: K): boolean {
    return this.holders.has(key);
  }

  /**
   * A signal that fires while the work still waits its turn rejects with SendAborted; the work never
   * runs, and the work queued behind it keeps its place. A free key runs the work at once, in the
   * caller's turn (a send's usual case: no hop), and the next waiter starts as soon as it settles.
   */
  run<T>(key: K, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(sendAborted(signal.reason));
    const holder = this.holders.get(key);
    if (holder === undefined) {
      const held: Holder = { waiting: undefined };
      this.holders.set(key, held);
      return this.started(key, held, work);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const waiting = holder.waiting as Waiter[];
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(sendAborted(signal?.reason));
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.started(key, holder, work).then(resolve, reject);
        },
      };
      (holder.waiting ??= []).push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Run the work holding the key; when it settles, the next waiter starts or the key is free. */
  private started<T>(key: K, holder: Holder, work: () => Promise<T>): Promise<T> {
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      // A synchronous throw becomes the run's rejection.
      running = Promise.reject(error);
    }
    const next = () => {
      const waiter = holder.waiting?.shift();
      if (waiter === undefined) this.holders.delete(key);
      else waiter.start();
    };
    running.then(next, next);
    return running;
  }
}
