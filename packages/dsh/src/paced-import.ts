import { AsyncLocalStorage } from 'node:async_hooks';
import { SessionLogRejected } from './session-log-errors';

/** What a paced import waits on between the chunks it reads. */
interface ImportPacer {
  pace(bytes: number): Promise<void>;
}

/*
 * The pacer travels with the import's own calls (an async context), so the byte source can pause
 * between chunks without every reader and stager in between passing it along; an import nobody
 * paces (a one-shot replay) never finds one and reads on.
 */
const currentPacer = new AsyncLocalStorage<ImportPacer>();

/** Called by the byte source before each chunk of `bytes`: a paced import whose slice is spent waits here for its next turn. */
export const paceImportRead = (bytes: number): Promise<void> | undefined => currentPacer.getStore()?.pace(bytes);

/** Bytes every step may read whatever the clock says, so each step moves the import on and a small file never waits. */
const bytesPerStep = 1024 * 1024;

/** One turn of a paced import: its result, or `paused` when its slice was spent first. */
export type PacedStep<A> = { readonly done: true; readonly value: A } | { readonly done: false };

/**
 * A whole-file import a follower runs in slices (docs/rules.md#follow-set-aside): it reads for
 * `sliceMs`, then waits at the next chunk until `step` is called again, so a big first file
 * never holds the other logs back for more than a slice per batch. The import stays one unit
 * that commits once, and it only moves during a step, so it writes only inside a follower's
 * batch. `cancel` makes the waiting read fail: the import is dropped and writes nothing.
 */
export class PacedImport<A> {
  private result: Promise<A> | undefined;
  private sliceStarted = 0;
  private resumeRead: (() => void) | undefined;
  private onPause: (() => void) | undefined;
  private cancelled = false;
  /** Bytes read in this step (of every read of the file the import makes). */
  private bytesThisStep = 0;
  /** Milliseconds the import spent reading (its waits between steps not counted). */
  private activeMs = 0;

  constructor(
    private readonly file: string,
    private readonly work: () => Promise<A>,
    private readonly sliceMs: number,
    private readonly now: () => number,
  ) {}

  get readingMs(): number {
    return this.activeMs;
  }

  /** Let the import read for one slice: its result if it finishes within it, else `done: false`. */
  step(): Promise<PacedStep<A>> {
    const paused = new Promise<PacedStep<A>>((resolve) => {
      this.onPause = () => resolve({ done: false });
    });
    this.sliceStarted = this.now();
    this.bytesThisStep = 0;
    if (this.result === undefined) {
      const pacer: ImportPacer = { pace: (bytes) => this.pace(bytes) };
      this.result = currentPacer.run(pacer, this.work);
    } else {
      const resume = this.resumeRead;
      this.resumeRead = undefined;
      resume?.();
    }
    const finished = this.result.then((value): PacedStep<A> => {
      this.activeMs += this.now() - this.sliceStarted;
      return { done: true, value };
    });
    return Promise.race([finished, paused]);
  }

  /** Drop an import that has not finished: its waiting read fails, so it writes nothing. */
  async cancel(): Promise<void> {
    this.cancelled = true;
    const resume = this.resumeRead;
    this.resumeRead = undefined;
    resume?.();
    await this.result?.catch(() => undefined);
  }

  private pace(bytes: number): Promise<void> {
    if (this.cancelled) return Promise.reject(this.stopped());
    this.bytesThisStep += bytes;
    if (this.bytesThisStep <= bytesPerStep) return Promise.resolve();
    const spent = this.now() - this.sliceStarted;
    if (spent < this.sliceMs) return Promise.resolve();
    this.activeMs += spent;
    return new Promise<void>((resolve, reject) => {
      this.resumeRead = () => (this.cancelled ? reject(this.stopped()) : resolve());
      this.onPause?.();
    });
  }

  private stopped(): SessionLogRejected {
    return new SessionLogRejected(
      'unreadable',
      this.file,
      'the follower stopped before the import of this file finished; nothing was written',
    );
  }
}
