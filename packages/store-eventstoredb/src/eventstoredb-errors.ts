import type { EventId } from '@teamlog/events';
import { StoreError, type StoreFailureKind, type StreamName, storeFailure } from '@teamlog/store';

/*
 * The adapter throws the port's StoreError like every store; these build its faults from what
 * EventStoreDB reports, taking what the adapter's own error classes took before.
 */

/** What went wrong talking to EventStoreDB, for errors the port has no code of its own for. */
export type EventStoreDbFailure = StoreFailureKind;

export type EventStoreDbOperation =
  | 'append'
  | 'readStream'
  | 'readAll'
  | 'subscribeToAll'
  | 'streamRevision'
  | 'connect';

/** A failure of the server or the connection, after the adapter's retries: the port's StoreFailure, never the caller's input. */
export const eventStoreDbError = (
  failure: EventStoreDbFailure,
  operation: EventStoreDbOperation,
  streamName: StreamName | undefined,
  detail: string,
  options?: { readonly cause: unknown },
): StoreError =>
  storeFailure(
    `EventStoreDB ${operation}${streamName === undefined ? '' : ` on stream ${streamName}`} failed (${failure}): ${detail}`,
    { failure, operation, ...(streamName === undefined ? {} : { streamName }), ...options },
  );

/** The server refuses appends above its MaxAppendSize (1 MiB by default); nothing was written. */
export const appendTooLarge = (
  streamName: StreamName,
  bytes: number | undefined,
  limitBytes: number,
  eventCount: number,
): StoreError => new StoreError({ code: 'AppendTooLarge', streamName, bytes, limitBytes, eventCount });

/** An append whose outcome retries and a read-back did not settle. */
export const appendOutcomeUnknown = (
  streamName: StreamName,
  eventIds: readonly EventId[],
  attempts: number,
  options: { readonly cause: unknown },
): StoreError => new StoreError({ code: 'AppendOutcomeUnknown', streamName, eventIds, attempts, cause: options.cause });

/** A stored event teamlog cannot represent (not JSON, no uuid id, no position). */
export const unreadableEvent = (
  streamId: string,
  revision: bigint | undefined,
  eventId: string | undefined,
  detail: string,
): StoreError => new StoreError({ code: 'UnreadableEvent', streamId, revision, eventId, detail });

/** The catch-up subscription lost its connection more times in a row than it is allowed to retry. */
export const subscriptionDropped = (attempts: number, options: { readonly cause: unknown }): StoreError =>
  new StoreError({ code: 'SubscriptionDropped', attempts, cause: options.cause });

export const invalidEventStoreUrl = (url: string, detail: string): StoreError =>
  new StoreError({ code: 'InvalidEventStoreUrl', url, detail });
