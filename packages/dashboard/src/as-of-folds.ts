import { type EventStore, formatPosition } from '@teamlog/store';
import { type ProjectionState, foldViewsAsOf } from '@teamlog/projections';
import { HttpError } from './http-errors';
import type { AsOfParam } from './query-codecs';

export interface AsOfFoldsOptions {
  /** Folds run at once (default 1); each also yields to the event loop every few milliseconds. */
  readonly concurrency?: number;
  /** Folds that may wait for a turn (default 8); past that a request is answered 503. */
  readonly queueLimit?: number;
  /** Finished folds kept, by moment and checkpoint (default 4). */
  readonly cacheSize?: number;
  /** How long a fold may work before it yields to other requests (default 8 ms). */
  readonly sliceMs?: number;
}

/** Yield to the event loop when the current slice of work is used up. */
const slicer = (sliceMs: number): (() => Promise<void>) => {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
};

/**
 * Views as of a moment, at a bounded cost: a fold reads `$all` from the start, so it is shared
 * by every request for the same moment (in flight and cached, keyed by the moment and the live
 * checkpoint, since a time cut changes when older events arrive), at most `concurrency` run at
 * once, each yielding to the event loop every `sliceMs` so plain requests are never starved, and
 * past `queueLimit` waiting folds a request gets 503 with Retry-After.
 */
export class AsOfFolds {
  private readonly cache = new Map<string, Promise<ProjectionState>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly concurrency: number;
  private readonly queueLimit: number;
  private readonly cacheSize: number;
  private readonly sliceMs: number;

  constructor(
    private readonly store: EventStore,
    options: AsOfFoldsOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 1;
    this.queueLimit = options.queueLimit ?? 8;
    this.cacheSize = options.cacheSize ?? 4;
    this.sliceMs = options.sliceMs ?? 8;
  }

  /** Folds running or waiting now. */
  get pending(): number {
    return this.running + this.waiting.length;
  }

  state(asOf: AsOfParam, checkpoint: string | null): Promise<ProjectionState> {
    const key = `${'position' in asOf ? `position:${formatPosition(asOf.position)}` : `time:${asOf.time}`}@${checkpoint ?? 'empty'}`;
    const known = this.cache.get(key);
    if (known !== undefined) {
      // Most recently used last: the oldest entry is the one dropped.
      this.cache.delete(key);
      this.cache.set(key, known);
      return known;
    }
    if (this.running >= this.concurrency && this.waiting.length >= this.queueLimit) {
      return Promise.reject(
        new HttpError({
          code: 'ServiceUnavailable',
          retryAfterSeconds: 1,
          detail: `the dashboard is busy with ${this.pending} as-of views; try again shortly`,
        }),
      );
    }
    const fold = this.inTurn(() => foldViewsAsOf(this.store, asOf, { pause: slicer(this.sliceMs), pauseEvery: 128 }));
    this.cache.set(key, fold);
    fold.catch(() => this.cache.delete(key));
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    return fold;
  }

  private async inTurn<A>(work: () => Promise<A>): Promise<A> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
