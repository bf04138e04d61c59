import { CodedError, type FaultOf, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';
import type { EventId } from '@teamlog/events';
import type { ExpectedRevision } from './event-store';
import type { StreamName } from './stream-name';

/*
 * The one error of the store port: every adapter (in-memory, heads-only, SQLite, PostgreSQL,
 * EventStoreDB) throws a StoreError whose fault's `code` says what was refused or what broke, so a
 * caller in the core tells a conflict from a missing stream or a failed server without knowing
 * the adapter. The codes are the names the classes of each case had.
 */

/**
 * Why the store itself failed, as the adapter judged it: the server unreachable, a server or
 * disk error, or one of EventStoreDB's answers (what they say about a retry is in
 * store-eventstoredb's failure-outcome).
 */
export type StoreFailureKind =
  | 'unavailable'
  | 'server'
  | 'not-leader'
  | 'deadline-exceeded'
  | 'timeout'
  | 'cancelled'
  | 'access-denied'
  | 'stream-deleted'
  | 'invalid-argument'
  | 'unsupported'
  | 'unknown';

export type StoreFault =
  | {
      readonly code: 'WrongExpectedVersion';
      readonly streamName: StreamName;
      readonly expected: ExpectedRevision;
      /** The stream's actual last revision, or 'no_stream'. */
      readonly actual: bigint | 'no_stream';
    }
  | { readonly code: 'StreamNotFound'; readonly streamName: StreamName }
  /** An event id already stored elsewhere, or a retry that is not the same batch as the original. */
  | {
      readonly code: 'DuplicateEventId';
      readonly eventId: EventId;
      readonly streamName: StreamName;
      readonly detail: string;
    }
  | { readonly code: 'StoreClosed' }
  /** An append the port's rules refuse (an empty type, an id twice in one batch, a unit already over). */
  | { readonly code: 'InvalidAppend'; readonly detail: string }
  /** A unit of staged appends grew past what the store keeps for one unit (nothing was written). */
  | { readonly code: 'StagedAppendsTooLarge'; readonly limitBytes: number; readonly detail: string }
  /** A read the heads-only store cannot serve: it kept the heads of its streams, not their events. */
  | { readonly code: 'PayloadsNotKept'; readonly streamName: StreamName | '$all'; readonly what: string }
  /**
   * The store itself failed (its server stayed unreachable through the adapter's retries, a server
   * or disk error): a fault of the environment, never of the caller's input, so callers in the
   * core (the importer, the follower) tell it from a bad file without knowing the adapter.
   */
  | {
      readonly code: 'StoreFailure';
      readonly detail: string;
      readonly failure?: StoreFailureKind;
      readonly operation?: string;
      readonly streamName?: StreamName;
      /** The server's own error code (PostgreSQL's SQLSTATE, the driver's code), when there is one. */
      readonly serverCode?: string;
      readonly cause?: unknown;
    }
  /** The server refuses appends above its limit (EventStoreDB's MaxAppendSize, 1 MiB by default); nothing was written. */
  | {
      readonly code: 'AppendTooLarge';
      readonly streamName: StreamName;
      /** The size the server counts (data + metadata + 2 bytes per type character), if known. */
      readonly bytes: number | undefined;
      readonly limitBytes: number;
      readonly eventCount: number;
    }
  /**
   * An append failed in a way that does not say whether it was written (connection lost, deadline
   * exceeded, commit timeout), and retrying with the same event ids and reading the stream back did
   * not settle it either. Retrying later with the same ids is safe for an exact expected revision.
   */
  | {
      readonly code: 'AppendOutcomeUnknown';
      readonly streamName: StreamName;
      readonly eventIds: readonly EventId[];
      readonly attempts: number;
      readonly cause: unknown;
    }
  /** A stored event teamlog cannot represent (not JSON, no uuid id, no position). */
  | {
      readonly code: 'UnreadableEvent';
      readonly streamId: string;
      readonly revision: bigint | undefined;
      readonly eventId: string | undefined;
      readonly detail: string;
    }
  /** The catch-up subscription lost its connection more times in a row than it is allowed to retry. */
  | { readonly code: 'SubscriptionDropped'; readonly attempts: number; readonly cause: unknown }
  /** An EventStoreDB connection string the client cannot use, refused on open (the CLI reports it as a usage error). */
  | { readonly code: 'InvalidEventStoreUrl'; readonly url: string; readonly detail: string };

export type StoreErrorCode = StoreFault['code'];

const describeRevision = (revision: ExpectedRevision | 'no_stream'): string =>
  typeof revision === 'bigint' ? revision.toString() : revision;

const causeText = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));

const storeMessages: MessageTable<StoreFault> = {
  WrongExpectedVersion: ({ streamName, expected, actual }) =>
    `stream ${streamName}: expected revision ${describeRevision(expected)}, actual ${describeRevision(actual)}`,
  StreamNotFound: ({ streamName }) => `stream ${streamName} not found`,
  DuplicateEventId: ({ eventId, streamName, detail }) => `event ${eventId} in stream ${streamName}: ${detail}`,
  StoreClosed: () => 'the event store is closed',
  InvalidAppend: ({ detail }) => detail,
  StagedAppendsTooLarge: ({ limitBytes, detail }) =>
    `the staged appends exceed ${limitBytes} bytes, the most this store writes as one unit: ${detail}; nothing was written`,
  PayloadsNotKept: ({ streamName, what }) =>
    `${streamName === '$all' ? '$all' : `stream ${streamName}`}: ${what}: this store keeps no events (a one-shot replay, --store :memory:)`,
  StoreFailure: ({ detail }) => detail,
  AppendTooLarge: ({ streamName, bytes, limitBytes, eventCount }) =>
    `stream ${streamName}: an append of ${eventCount} event(s)${bytes === undefined ? '' : ` and ${bytes} bytes`} exceeds the ` +
    `EventStoreDB append limit of ${limitBytes} bytes; nothing was written. Split the batch into smaller appends ` +
    `(each one atomic on its own) or raise the server's MaxAppendSize together with the adapter's maxAppendBytes`,
  AppendOutcomeUnknown: ({ streamName, eventIds, attempts, cause }) =>
    `stream ${streamName}: append of ${eventIds.length} event(s) starting with ${eventIds[0] ?? '(none)'} has an unknown outcome ` +
    `after ${attempts} attempt(s): ${causeText(cause)}`,
  UnreadableEvent: ({ streamId, revision, eventId, detail }) =>
    `stream ${streamId}${revision === undefined ? '' : ` revision ${revision}`}${eventId === undefined ? '' : ` (event ${eventId})`}: ${detail}`,
  SubscriptionDropped: ({ attempts, cause }) =>
    `the $all subscription dropped ${attempts} time(s) in a row and gave up: ${causeText(cause)}`,
  InvalidEventStoreUrl: ({ url, detail }) => `invalid EventStoreDB connection string ${url}: ${detail}`,
};

/** The one-line message of a fault (what `StoreError.message` says). */
export const describeStoreFault = describeFault(storeMessages);

/** Every error a store raises on purpose; `code` says which, `fault` holds the fields of that code. */
export class StoreError<F extends StoreFault = StoreFault> extends CodedError<F> {
  override readonly name = 'StoreError';
  constructor(fault: F) {
    super(fault, describeStoreFault(fault));
  }
}

/** Narrow an unknown error to a StoreError, of the given codes when any are named. */
export const isStoreError = codedErrorGuard<StoreFault, StoreError>(StoreError);

/*
 * One constructor per code, taking what the class of that case took, so a throw site reads as
 * before: `throw wrongExpectedVersion(stream, expected, actual)`.
 */

export const wrongExpectedVersion = (
  streamName: StreamName,
  expected: ExpectedRevision,
  actual: bigint | 'no_stream',
): StoreError => new StoreError({ code: 'WrongExpectedVersion', streamName, expected, actual });

export const streamNotFound = (streamName: StreamName): StoreError =>
  new StoreError({ code: 'StreamNotFound', streamName });

export const duplicateEventId = (eventId: EventId, streamName: StreamName, detail: string): StoreError =>
  new StoreError({ code: 'DuplicateEventId', eventId, streamName, detail });

export const storeClosed = (): StoreError => new StoreError({ code: 'StoreClosed' });

export const invalidAppend = (detail: string): StoreError => new StoreError({ code: 'InvalidAppend', detail });

export const stagedAppendsTooLarge = (limitBytes: number, detail: string): StoreError =>
  new StoreError({ code: 'StagedAppendsTooLarge', limitBytes, detail });

export const payloadsNotKept = (streamName: StreamName | '$all', what: string): StoreError =>
  new StoreError({ code: 'PayloadsNotKept', streamName, what });

/** The store itself failed; `detail` is the whole message, the other fields say how, for the adapter's retries. */
export const storeFailure = (
  detail: string,
  how: Omit<FaultOf<StoreFault, 'StoreFailure'>, 'code' | 'detail'> = {},
): StoreError => new StoreError({ code: 'StoreFailure', detail, ...how });
