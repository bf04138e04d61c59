import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EventDigest } from '@teamlog/store';
import type { StagingReply, StagingRequest, StagingThreadData } from './sqlite-staging-protocol';
import { type StagedRow, packStagedRows } from './staged-row-buffer';

/** Batches sent and not yet staged before a sender waits: bounds the bytes in flight between the threads. */
const maxInFlight = 2;

/** The worker's script: beside this module in the build (tests that load the sources use the build's). */
const workerScript = (): string => {
  const beside = join(__dirname, 'sqlite-staging-worker.js');
  return existsSync(beside) ? beside : join(__dirname, '..', 'dist', 'sqlite-staging-worker.js');
};

/**
 * The second thread of a SQLite store's imports: the store's staged units send their rows here,
 * each batch packed into one transferred buffer, and this thread's worker decodes, chains and
 * writes them into a scratch file while the importer reads, parses and validates the next batch.
 * The commit (sqlite-staged-appends.ts) waits for `flush`, then copies the rows from the scratch
 * file into `events` in the store's own transaction, with its views: a unit stays whole or nothing.
 */
export class StagingThread {
  readonly file: string;
  private readonly directory: string;
  private readonly worker: Worker;
  private inFlight = 0;
  private waiting: Array<() => void> = [];
  private readonly flushes = new Map<number, () => void>();
  private nextToken = 0;
  private failure: Error | undefined;
  private closed = false;

  constructor() {
    this.directory = mkdtempSync(join(tmpdir(), 'teamlog-staging-'));
    this.file = join(this.directory, 'staged.sqlite');
    const data: StagingThreadData = { file: this.file };
    this.worker = new Worker(workerScript(), { workerData: data });
    // The store's close ends the thread; an idle one never keeps the process alive (see settle).
    this.worker.unref();
    this.worker.on('message', (reply: StagingReply) => this.onReply(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`the SQLite staging thread exited (code ${code})`));
    });
  }

  /** Send one batch of a unit's stream; waits while too many batches are in flight. Throws what the thread failed with. */
  async stage(
    unit: number,
    stream: string,
    first: number,
    chained: boolean,
    previousDigest: EventDigest | undefined,
    rows: readonly StagedRow[],
  ): Promise<void> {
    this.assertHealthy();
    while (this.inFlight >= maxInFlight) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      this.assertHealthy();
    }
    const buffer = packStagedRows(rows);
    this.inFlight += 1;
    this.post({ kind: 'rows', unit, stream, first, chained, previousDigest, rows: buffer }, [buffer]);
  }

  /** Resolves once every batch sent before it is written to the scratch file; rejects with the thread's failure. */
  async flush(): Promise<void> {
    this.assertHealthy();
    const token = (this.nextToken += 1);
    await new Promise<void>((resolve, reject) => {
      this.flushes.set(token, () => (this.failure === undefined ? resolve() : reject(this.failure)));
      this.post({ kind: 'flush', token });
    });
  }

  /** Forget a unit's rows (after its commit, or when it is dropped). */
  drop(unit: number): void {
    if (!this.closed && this.failure === undefined) this.post({ kind: 'drop', unit });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.failure === undefined) {
      const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
      this.post({ kind: 'close' });
      await exited;
    } else await this.worker.terminate();
    rmSync(this.directory, { recursive: true, force: true });
  }

  private post(request: StagingRequest, transfer: ArrayBuffer[] = []): void {
    // While an answer (or the thread's exit, after close) is awaited the thread keeps the process alive.
    if (request.kind !== 'drop') this.worker.ref();
    this.worker.postMessage(request, transfer);
  }

  /** Idle again: the thread no longer keeps the process alive. */
  private settle(): void {
    if (this.inFlight === 0 && this.flushes.size === 0) this.worker.unref();
  }

  private assertHealthy(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.closed) throw new Error('the SQLite staging thread is closed');
  }

  private onReply(reply: StagingReply): void {
    switch (reply.kind) {
      case 'staged': {
        this.inFlight -= 1;
        this.waiting.shift()?.();
        this.settle();
        return;
      }
      case 'flushed': {
        const settle = this.flushes.get(reply.token);
        this.flushes.delete(reply.token);
        settle?.();
        this.settle();
        return;
      }
      case 'failed':
        this.fail(new Error(`staging failed: ${reply.message}`));
        return;
      default: {
        const never: never = reply;
        throw new Error(`unknown staging reply ${JSON.stringify(never)}`);
      }
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const wake of this.waiting.splice(0)) wake();
    for (const [token, settle] of this.flushes) {
      this.flushes.delete(token);
      settle();
    }
  }
}
