import { sendAborted } from './team-log-errors';

/**
 * One FIFO queue per key: work on a key runs one at a time, in call order. It orders the writers of
 * one process; other processes are ordered by the store's optimistic concurrency.
 */
export class KeyedLock<K> {
  private readonly tails = new Map<K, Promise<void>>();

  /** Whether work on the key runs or waits now. */
  isHeld(key: K): boolean {
    return this.tails.has(key);
  }

  /**
   * A signal that fires while the work still waits its turn rejects with SendAborted; the work never
   * runs. A free key runs the work at once, in the caller's turn (a send's usual case: no hop).
   */
  run<T>(key: K, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tails.get(key);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The next waiter waits for both, so leaving the queue early (abort) never lets it overtake.
    const tail = previous === undefined ? held : previous.then(() => held);
    this.tails.set(key, tail);
    const done = () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    let running: Promise<T>;
    if (previous !== undefined) running = abortable(previous, signal).then(work);
    else if (signal?.aborted === true) running = Promise.reject(sendAborted(signal.reason));
    else running = started(work);
    running.then(done, done);
    return running;
  }
}

/** The work's promise; a synchronous throw becomes its rejection. */
const started = <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
};

const abortable = (waiting: Promise<void>, signal: AbortSignal | undefined): Promise<void> => {
  if (signal === undefined) return waiting;
  if (signal.aborted) return Promise.reject(sendAborted(signal.reason));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(sendAborted(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    waiting.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
};
