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
   * caller's turn (a send's usual case: no hop), and the next waiter starts as soon as it settles,
   * or as soon as the work calls `release` (its last step, in the same turn as its result).
   */
  run<T>(key: K, work: (release: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.queued(key, work, signal, false);
  }

  /**
   * `run` for work that calls `release` on every path, before or as its promise settles (the
   * engine's transactions): the lock attaches nothing to the work's promise, which is then the
   * caller's own (a free key: no promise of the lock's per run).
   */
  runReleasing<T>(key: K, work: (release: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.queued(key, work, signal, true);
  }

  private queued<T>(
    key: K,
    work: (release: () => void) => Promise<T>,
    signal: AbortSignal | undefined,
    releases: boolean,
  ): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(sendAborted(signal.reason));
    const holder = this.holders.get(key);
    if (holder === undefined) {
      const held: Holder = { waiting: undefined };
      this.holders.set(key, held);
      return this.started(key, held, work, releases);
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
          this.started(key, holder, work, releases).then(resolve, reject);
        },
      };
      (holder.waiting ??= []).push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Run the work holding the key; when it releases the key or settles, whichever is first, the next
   * waiter starts or the key is free. A release from the work's last step frees the key before the
   * work's own caller resumes: settling alone frees it a microtask later, after callers that awaited
   * the work first, so a caller's next run on the key would find it still held and queue.
   */
  private started<T>(key: K, holder: Holder, work: (release: () => void) => Promise<T>, releases: boolean): Promise<T> {
    let released = false;
    const next = () => {
      if (released) return;
      released = true;
      const waiter = holder.waiting?.shift();
      if (waiter === undefined) this.holders.delete(key);
      else waiter.start();
    };
    let running: Promise<T>;
    try {
      running = work(next);
    } catch (error) {
      // A synchronous throw becomes the run's rejection (and, since it may not have released, frees the key).
      next();
      return Promise.reject(error);
    }
    if (!releases) running.then(next, next);
    return running;
  }
}
