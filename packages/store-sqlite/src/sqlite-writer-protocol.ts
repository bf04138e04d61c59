import type { ExpectedRevision, StagedStreamResult, StoreFault } from '@teamlog/store';
import type { MessagePort } from 'node:worker_threads';

/* The messages between a SQLite store's importing thread and its writer thread (sqlite-writer-worker.ts). */

export interface WriterThreadData {
  readonly file: string;
  readonly busyTimeoutMs: number;
  /** The importing connection's `cache_size` (the writer's page cache is sized alike). */
  readonly cacheSize: number;
  /** [0]: requests posted and not yet handled; [1]: WriterSignal. */
  readonly shared: SharedArrayBuffer;
  /** Where the answers to calls go (read with receiveMessageOnPort). */
  readonly replies: MessagePort;
}

/** What the writer thread tells the importing thread through the shared word [1]. */
export const WriterSignal = {
  Healthy: 0,
  /** The unit failed on the writer: its transaction is rolled back, the next call answers why. */
  UnitFailed: 1,
  /** The thread ended. */
  Exited: 2,
} as const;

/** One stream of the unit as the ledger staged it. */
export interface WriterStream {
  readonly stream: string;
  readonly expected: ExpectedRevision;
}

/** Requests; `call` marks those answered (the others are only counted as handled). */
export type WriterRequest =
  | { readonly kind: 'begin' }
  | {
      readonly kind: 'rows';
      readonly stream: string;
      /** The stream's expectation, checked at its first batch in the unit. */
      readonly expected: ExpectedRevision;
      readonly recordedAt: number;
      /** packStagedRows, transferred. */
      readonly rows: ArrayBuffer;
      /**
       * Each row's hash-chain digest (64 hex characters each, in row order), chained by the importing
       * thread from its stream's committed head; absent when the writer chains them itself.
       */
      readonly digests: string | undefined;
    }
  | { readonly kind: 'sql'; readonly statements: ReadonlyArray<readonly [sql: string, params: readonly unknown[]]> }
  | { readonly kind: 'results'; readonly streams: readonly WriterStream[] }
  | { readonly kind: 'read'; readonly after: bigint; readonly max: number }
  | { readonly kind: 'commit' }
  | { readonly kind: 'rollback' }
  | { readonly kind: 'close' };

/** Why a unit failed on the writer: a store fault is rebuilt as the StoreError it was. */
export type WriterFailure =
  | { readonly kind: 'store'; readonly fault: StoreFault }
  | { readonly kind: 'error'; readonly message: string; readonly code: string | undefined };

export type WriterReply =
  | { readonly kind: 'begun'; readonly before: bigint }
  | { readonly kind: 'results'; readonly results: readonly StagedStreamResult[] }
  | { readonly kind: 'rows'; readonly rows: readonly unknown[] }
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly failure: WriterFailure };
