import { sendAborted } from './team-log-errors';

/** Work waiting for its key: started when the work before it settles, dropped when its signal fires first. */
interface Waiter {
  readonly start: () => void;
}

/** One run's hold of its key: `release` lets the key go (the first call; later ones do nothing). */
export interface HeldKey {
  release(): void;
}

/**
 * Work that lets its key go itself on every path, before or as its promise settles (`runHeld`): an
 * object, so a caller that is one already (the engine's transaction) costs the lock no closure.
 */
export interface HeldWork<T> {
  start(held: HeldKey): Promise<T>;
}

/**
 * A held key, one per run: the work waiting behind it, oldest first (made on the first waiter and
 * handed on to the next run's hold). Work that extends it is its own hold (`runHeld`): the
 * engine's transaction costs the lock no object of its own.
 */
export class Hold<K> implements HeldKey {
  private released = false;
  private holders: Map<K, Hold<K> | Free> | undefined = undefined;
  private key: K | undefined = undefined;
  waiting: Waiter[] | undefined = undefined;

  /** Taken by the lock when its run starts (a hold is taken once). */
  take(holders: Map<K, Hold<K> | Free>, key: K, waiting: Waiter[] | undefined): void {
    this.holders = holders;
    this.key = key;
    this.waiting = waiting;
  }

  /** Lets the key go; a hold the lock has not taken yet has nothing to let go. */
  release(): void {
    const { holders } = this;
    if (this.released || holders === undefined) return;
    this.released = true;
    const waiter = this.waiting?.shift();
    // Kept as free rather than deleted: a delete shrinks the map's table and the key's next run
    // grows it again (KeyedLock.holders).
    if (waiter === undefined) holders.set(this.key as K, free);
    else waiter.start();
  }
}

/** A key no work holds now. */
type Free = typeof free;
const free = 'free' as const;

/** At most this many keys are remembered; past it, the free ones are forgotten (the held ones stay). */
export const maxRememberedKeys = 4096;

/** `run`'s work, a function that may release early: the key is let go when its promise settles at the latest. */
class ReleasedOnSettle<T> implements HeldWork<T> {
  constructor(private readonly work: (release: () => void) => Promise<T>) {}

  start(held: HeldKey): Promise<T> {
    const release = () => held.release();
    const running = this.work(release);
    running.then(release, release);
    return running;
  }
}

/**
 * One FIFO queue per key: work on a key runs one at a time, in call order. It orders the writers of
 * one process; other processes are ordered by the store's optimistic concurrency.
 */
export class KeyedLock<K> {
  /**
   * Each key's hold while work runs on it; a key whose work is done stays, free, so a key used
   * again (a send's target, a send after send) writes its slot instead of adding and deleting an
   * entry per run. Bounded by `maxRememberedKeys`.
   */
  private readonly holders = new Map<K, Hold<K> | Free>();

  /** Whether work on the key runs or waits now. */
  isHeld(key: K): boolean {
    const holder = this.holders.get(key);
    return holder !== undefined && holder !== free;
  }

  /** How many keys the lock remembers, held or free (at most `maxRememberedKeys` free ones). */
  get rememberedKeys(): number {
    return this.holders.size;
  }

  /**
   * A signal that fires while the work still waits its turn rejects with SendAborted; the work never
   * runs, and the work queued behind it keeps its place. A free key runs the work at once, in the
   * caller's turn (a send's usual case: no hop), and the next waiter starts as soon as it settles,
   * or as soon as the work calls `release` (its last step, in the same turn as its result).
   */
  run<T>(key: K, work: (release: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.runHeld(key, new ReleasedOnSettle(work), signal);
  }

  /**
   * `run` for work that calls `held.release()` on every path, before or as its promise settles (the
   * engine's transactions): the lock attaches nothing to the work's promise, which is then the
   * caller's own. Work that is a `Hold` is its own hold (a free key: the lock makes no object);
   * other work gets a new one.
   */
  runHeld<T>(key: K, work: HeldWork<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(sendAborted(signal.reason));
    const holder = this.holders.get(key);
    if (holder === undefined || holder === free) return this.started(key, undefined, work);
    return new Promise<T>((resolve, reject) => {
      // Shared by every hold of the key until it is free again, so a waiter leaves the queue it joined.
      const waiting = (holder.waiting ??= []);
      const onAbort = () => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(sendAborted(signal?.reason));
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.started(key, waiting, work).then(resolve, reject);
        },
      };
      waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Run the work holding the key; when it releases the key, the next waiter starts or the key is
   * free. A release from the work's last step frees the key before the work's own caller resumes:
   * settling alone frees it a microtask later, after callers that awaited the work first, so a
   * caller's next run on the key would find it still held and queue.
   */
  /** Forget every free key (a held key keeps its queue). */
  private forgetFree(): void {
    for (const [key, holder] of this.holders) if (holder === free) this.holders.delete(key);
  }

  private started<T>(key: K, waiting: Waiter[] | undefined, work: HeldWork<T>): Promise<T> {
    const held = work instanceof Hold ? (work as Hold<K>) : new Hold<K>();
    held.take(this.holders, key, waiting);
    const remembered = this.holders.size;
    this.holders.set(key, held);
    if (this.holders.size > remembered && remembered >= maxRememberedKeys) this.forgetFree();
    try {
      return work.start(held);
    } catch (error) {
      // A synchronous throw becomes the run's rejection (and, since it may not have released, frees the key).
      held.release();
      return Promise.reject(error);
    }
  }
}
