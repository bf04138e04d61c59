import type { EventId } from '@teamlog/events';
import { StoreFailure, type StreamName } from '@teamlog/store';

/** What went wrong talking to EventStoreDB, for errors the port has no typed error for. */
export type EventStoreDbFailure =
  | 'not-leader'
  | 'unavailable'
  | 'deadline-exceeded'
  | 'timeout'
  | 'cancelled'
  | 'access-denied'
  | 'stream-deleted'
  | 'invalid-argument'
  | 'unsupported'
  | 'unknown';

export type EventStoreDbOperation =
  | 'append'
  | 'readStream'
  | 'readAll'
  | 'subscribeToAll'
  | 'streamRevision'
  | 'connect';

/** A failure of the server or the connection, after the adapter's retries: a StoreFailure of the port, never the caller's input. */
export class EventStoreDbError extends StoreFailure {
  override readonly name = 'EventStoreDbError';
  constructor(
    readonly failure: EventStoreDbFailure,
    readonly operation: EventStoreDbOperation,
    readonly streamName: StreamName | undefined,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(
      `EventStoreDB ${operation}${streamName === undefined ? '' : ` on stream ${streamName}`} failed (${failure}): ${detail}`,
      options,
    );
  }
}

/** The server refuses appends above its MaxAppendSize (1 MiB by default); nothing was written. */
export class AppendTooLarge extends Error {
  override readonly name = 'AppendTooLarge';
  constructor(
    readonly streamName: StreamName,
    /** The size the server counts (data + metadata + 2 bytes per type character), if known. */
    readonly bytes: number | undefined,
    readonly limitBytes: number,
    readonly eventCount: number,
  ) {
    super(
      `stream ${streamName}: an append of ${eventCount} event(s)${bytes === undefined ? '' : ` and ${bytes} bytes`} exceeds the ` +
        `EventStoreDB append limit of ${limitBytes} bytes; nothing was written. Split the batch into smaller appends ` +
        `(each one atomic on its own) or raise the server's MaxAppendSize together with the adapter's maxAppendBytes`,
    );
  }
}

/**
 * An append failed in a way that does not say whether it was written (connection lost, deadline
 * exceeded, commit timeout), and retrying with the same event ids and reading the stream back did
 * not settle it either. Retrying later with the same ids is safe for an exact expected revision.
 */
export class AppendOutcomeUnknown extends Error {
  override readonly name = 'AppendOutcomeUnknown';
  constructor(
    readonly streamName: StreamName,
    readonly eventIds: readonly EventId[],
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(
      `stream ${streamName}: append of ${eventIds.length} event(s) starting with ${eventIds[0] ?? '(none)'} has an unknown outcome ` +
        `after ${attempts} attempt(s): ${options?.cause instanceof Error ? options.cause.message : String(options?.cause)}`,
      options,
    );
  }
}

/** A stored event teamlog cannot represent (not JSON, no uuid id, no position). */
export class UnreadableEvent extends Error {
  override readonly name = 'UnreadableEvent';
  constructor(
    readonly streamId: string,
    readonly revision: bigint | undefined,
    readonly eventId: string | undefined,
    readonly detail: string,
  ) {
    super(
      `stream ${streamId}${revision === undefined ? '' : ` revision ${revision}`}${eventId === undefined ? '' : ` (event ${eventId})`}: ${detail}`,
    );
  }
}

/** The catch-up subscription lost its connection more times in a row than it is allowed to retry. */
export class SubscriptionDropped extends Error {
  override readonly name = 'SubscriptionDropped';
  constructor(
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(
      `the $all subscription dropped ${attempts} time(s) in a row and gave up: ` +
        `${options?.cause instanceof Error ? options.cause.message : String(options?.cause)}`,
      options,
    );
  }
}

export class InvalidEventStoreUrl extends Error {
  override readonly name = 'InvalidEventStoreUrl';
  constructor(
    readonly url: string,
    detail: string,
  ) {
    super(`invalid EventStoreDB connection string ${url}: ${detail}`);
  }
}
