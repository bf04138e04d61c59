import { sendAborted } from './team-log-errors';

/**
 * One FIFO queue per key: work on a key runs one at a time, in call order. It orders the writers of
 * one process; other processes are ordered by the store's optimistic concurrency.
 */
export class KeyedLock<K> {
  private readonly tails = new Map<K, Promise<void>>();

  /** A signal that fires while the work still waits its turn rejects with SendAborted; the work never runs. */
  async run<T>(key: K, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The next waiter waits for both, so leaving the queue early (abort) never lets it overtake.
    const tail = previous.then(() => held);
    this.tails.set(key, tail);
    try {
      await abortable(previous, signal);
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

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
