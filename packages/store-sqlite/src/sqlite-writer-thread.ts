import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { StoreError } from '@teamlog/store';
import {
  type WriterFailure,
  type WriterReply,
  type WriterRequest,
  WriterSignal,
  type WriterThreadData,
} from './sqlite-writer-protocol';

/** The worker's script: beside this module in the build (tests that load the sources use the build's). */
const workerScript = (): string => {
  const beside = join(__dirname, 'sqlite-writer-worker.js');
  return existsSync(beside) ? beside : join(__dirname, '..', 'dist', 'sqlite-writer-worker.js');
};

/** A failure the writer thread reported, as the error it was on that thread. */
export const writerError = (failure: WriterFailure): Error => {
  if (failure.kind === 'store') return new StoreError(failure.fault);
  const error = new Error(failure.message);
  return failure.code === undefined ? error : Object.assign(error, { code: failure.code });
};

export interface WriterThreadOptions {
  readonly file: string;
  readonly busyTimeoutMs: number;
  readonly cacheSize: number;
}

/**
 * The second thread of a SQLite store's imports (sqlite-writer-worker.ts): it owns the write
 * connection of a unit and writes its rows, the events' and the views', in one transaction. The
 * importing thread posts writes without waiting for them (row batches in transferred buffers, the
 * views' statements as values) and waits only when too many are pending (`maxPending`, so memory
 * stays bounded) and for the few calls that answer (begin, results, commit). Waiting is
 * synchronous (Atomics.wait on a shared count, answers read with receiveMessageOnPort): the unit's
 * code stays as straight as the one-thread unit's, and the thread never keeps the process alive.
 */
export class WriterThread {
  private readonly worker: Worker;
  private readonly shared: Int32Array;
  private readonly replies: MessagePort;
  private closed = false;

  constructor(options: WriterThreadOptions) {
    this.shared = new Int32Array(new SharedArrayBuffer(8));
    const channel = new MessageChannel();
    this.replies = channel.port1;
    const data: WriterThreadData = {
      file: options.file,
      busyTimeoutMs: options.busyTimeoutMs,
      cacheSize: options.cacheSize,
      shared: this.shared.buffer as SharedArrayBuffer,
      replies: channel.port2,
    };
    this.worker = new Worker(workerScript(), {
      workerData: data,
      transferList: [channel.port2],
      // Its garbage is young (each batch's strings and values): with 4 MiB, collecting was 22% of its
      // time; with 16, 5%, for about 15 MiB more peak RSS (docs/benchmarks.md, The writer thread).
      // A process that holds V8's young-generation growth (the CLI, writerThreadStarted) holds this
      // thread's at its start size too: the flag is process-wide.
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    this.worker.unref();
    this.replies.unref();
    // An error the worker could not answer with (it failed to start): the next wait reports the exit.
    this.worker.on('error', () => undefined);
  }

  /** Whether a write failed on the thread since the last call (the unit is rolled back there). */
  get unitFailed(): boolean {
    return Atomics.load(this.shared, 1) === WriterSignal.UnitFailed;
  }

  /** Post a write without waiting for it; waits first while more than `maxPending` requests are pending. */
  post(request: WriterRequest, maxPending: number, transfer: ArrayBuffer[] = []): void {
    this.waitFor(maxPending);
    Atomics.add(this.shared, 0, 1);
    this.worker.postMessage(request, transfer);
  }

  /** Post a request and wait for its answer (every request before it handled); throws what the thread failed with. */
  call(request: WriterRequest): WriterReply {
    if (this.closed) throw new Error('the SQLite writer thread is closed');
    this.post(request, Number.POSITIVE_INFINITY);
    this.waitFor(0);
    const received = receiveMessageOnPort(this.replies);
    if (received === undefined) throw new Error(`the SQLite writer thread did not answer ${request.kind}`);
    Atomics.compareExchange(this.shared, 1, WriterSignal.UnitFailed, WriterSignal.Healthy);
    const reply = received.message as WriterReply;
    if (reply.kind === 'failed') throw writerError(reply.failure);
    return reply;
  }

  /** Close the thread's connection (rolling back a unit it holds) and end the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (Atomics.load(this.shared, 1) !== WriterSignal.Exited) this.call({ kind: 'close' });
    } finally {
      this.closed = true;
      await this.worker.terminate();
      this.replies.close();
    }
  }

  private waitFor(maxPending: number): void {
    for (;;) {
      const pending = Atomics.load(this.shared, 0);
      if (pending <= maxPending) return;
      if (Atomics.load(this.shared, 1) === WriterSignal.Exited) throw new Error('the SQLite writer thread exited');
      Atomics.wait(this.shared, 0, pending, 1_000);
    }
  }
}
