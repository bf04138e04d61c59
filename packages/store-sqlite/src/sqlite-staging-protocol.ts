import type { EventDigest } from '@teamlog/store';

/* The messages between a SQLite store and its staging thread (sqlite-staging-worker.ts). */

export interface StagingThreadData {
  /** The scratch SQLite file the thread stages into. */
  readonly file: string;
}

export type StagingRequest =
  | {
      readonly kind: 'rows';
      readonly unit: number;
      readonly stream: string;
      /** The offset of the first row in the unit's stream. */
      readonly first: number;
      /** Whether the store chains its events; then the first batch of a stream starts from this digest. */
      readonly chained: boolean;
      readonly previousDigest: EventDigest | undefined;
      /** packStagedRows, transferred. */
      readonly rows: ArrayBuffer;
    }
  | { readonly kind: 'drop'; readonly unit: number }
  | { readonly kind: 'flush'; readonly token: number }
  | { readonly kind: 'close' };

export type StagingReply =
  | { readonly kind: 'staged'; readonly unit: number }
  | { readonly kind: 'flushed'; readonly token: number }
  | { readonly kind: 'failed'; readonly message: string };
