import { BACKWARDS, END, FORWARDS, START } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import {
  type AppendOptions,
  type AppendResult,
  assertExpectedRevision,
  meetsExpectedRevision,
  assertValidBatch,
  storeClosed,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  isAfter,
  type KnownRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StagedAppends,
  type StoredLink,
  streamName,
  type StoreError,
  isStoreError,
  type StreamName,
  duplicateEventId,
  type RetryPolicy,
  type SubscribeToAllOptions,
  type Subscription,
  wrongExpectedVersion,
  retryDelay,
  sameEventId,
  sleep,
} from '@teamlog/store';
import { eventStoreDbStagedAppends } from './eventstoredb-staged-appends';
import { assertAppendSize, defaultMaxAppendBytes } from './append-size';
import { type BatchLookup, lookupBatch } from './batch-lookup';
import { type BatchSearchRange, batchSearchRange } from './batch-search-range';
import { type ClientErrorContext, mapClientError } from './client-error-mapping';
import { iterateClientRead } from './client-iteration';
import {
  type ChainHead,
  chainEvents,
  emptyChainHead,
  splitChainDigest,
  storedChainOf,
} from './eventstoredb-event-chain';
import type { EventStoreDbClient } from './eventstoredb-client';
import { appendOutcomeUnknown, eventStoreDbError } from './eventstoredb-errors';
import { toClientExpectedRevision } from './expected-revision-mapping';
import { type FailureOutcome, failureOutcome } from './failure-outcome';
import { fromClientPosition, toClientPosition } from './global-position-mapping';
import { type ClientRecordedEvent, fromResolvedEvent } from './recorded-event-mapping';
import { resubscribingSubscription, type SubscriptionDrop } from './resubscribing-subscription';
import { isSystemEvent } from './system-events';

export interface AppendRetry {
  readonly streamName: StreamName;
  readonly attempt: number;
  readonly delayMs: number;
  readonly outcome: FailureOutcome;
  readonly error: Error;
}

export interface EventStoreDbEventStoreOptions {
  /** The server's MaxAppendSize; larger appends are refused before sending. Default 1 MiB. */
  readonly maxAppendBytes?: number;
  /** Retries of an append whose outcome is unknown or that reached a follower. */
  readonly appendRetry?: RetryPolicy;
  /** Resubscriptions of `$all` after the connection drops. */
  readonly resubscribe?: RetryPolicy;
  /** Events per request when reading `$all`. */
  readonly readPageSize?: number;
  /**
   * How many of a stream's last events are searched for a batch appended with expected revision
   * 'any' or 'stream_exists' whose outcome is unknown (exact revisions need no search).
   */
  readonly retrySearchWindow?: number;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly onAppendRetry?: (retry: AppendRetry) => void;
  readonly onSubscriptionDropped?: (drop: SubscriptionDrop) => void;
  /** The bytes one unit of staged appends may hold in memory until its commit (default 64 MiB). */
  readonly maxStagedBytes?: number;
}

/** Retries of one append (the back-off algorithm is the store port's `retryDelay`). */
export const defaultAppendRetry: RetryPolicy = { initialDelayMs: 100, maxDelayMs: 2_000, maxAttempts: 5 };
/** Resubscriptions of `$all` in a row before a subscription gives up. */
export const defaultResubscribe: RetryPolicy = { initialDelayMs: 100, maxDelayMs: 5_000, maxAttempts: 30 };

const origin: GlobalPosition = { commit: 0n, prepare: 0n };

/** The refusal of an expectation the stream's head does not meet, or undefined when it does. */
const expectationRefusal = (
  stream: StreamName,
  expected: ExpectedRevision,
  head: bigint | undefined,
): StoreError | undefined =>
  meetsExpectedRevision(expected, head) ? undefined : wrongExpectedVersion(stream, expected, head ?? 'no_stream');

/** What one attempt of a chained append came to (errors of the client are thrown, mapped). */
type ChainedAppend =
  | { readonly kind: 'appended'; readonly result: AppendResult }
  /** The head does not meet the expectation, or is already this batch's: answered from what is stored. */
  | { readonly kind: 'refused'; readonly refusal: StoreError | undefined }
  /** Another writer appended after the head was read. */
  | { readonly kind: 'raced'; readonly refusal: StoreError };

/** The stream ends with an event of this batch: a retry, answered from what is stored (never chained twice). */
const isRetryAtHead = (head: ChainHead, events: readonly EventToAppend[]): boolean =>
  head.eventId !== undefined && events.some((event) => sameEventId(event.id, head.eventId as string));

/**
 * The EventStore port over EventStoreDB / KurrentDB. A thin wrapper: the mapping lives in pure
 * modules. Appends go to the leader and are read back, so the result carries the event's real
 * `$all` position and a retried batch gets the original result; see docs/scale-out.md.
 */
export class EventStoreDbEventStore implements EventStore {
  private closed = false;
  private readonly subscriptions = new Set<Subscription>();
  private readonly maxAppendBytes: number;
  private readonly appendRetry: RetryPolicy;
  private readonly resubscribe: RetryPolicy;
  private readonly readPageSize: number;
  private readonly retrySearchWindow: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(
    private readonly client: EventStoreDbClient,
    private readonly options: EventStoreDbEventStoreOptions = {},
  ) {
    this.maxAppendBytes = options.maxAppendBytes ?? defaultMaxAppendBytes;
    this.appendRetry = options.appendRetry ?? defaultAppendRetry;
    this.resubscribe = options.resubscribe ?? defaultResubscribe;
    this.readPageSize = options.readPageSize ?? 1000;
    this.retrySearchWindow = options.retrySearchWindow ?? 256;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? sleep;
  }

  async appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    assertValidBatch(stream, events);
    const expected = options.expectedRevision ?? 'any';
    if (events.length === 0) return this.appendNothing(stream, expected);
    return this.appendWithRetry(stream, events, expected);
  }

  /**
   * Every stored event as the bytes its digest covers, with the digest its metadata carries,
   * stream by stream in revision order (the streams in the order `$all` first names them).
   */
  async *readStoredLinks(): AsyncGenerator<StoredLink> {
    this.assertOpen();
    const streams = new Set<string>();
    for await (const recorded of this.allRecords()) streams.add(recorded.streamId);
    for (const name of streams) {
      const stream = streamName(name);
      const read = this.client.readStream(name, { fromRevision: START, direction: FORWARDS });
      for await (const resolved of iterateClientRead(read, (error) =>
        mapClientError(error, { operation: 'readStream', streamName: stream }),
      )) {
        const recorded = resolved.event;
        if (recorded === undefined) continue;
        const { digest, bytes } = storedChainOf(recorded);
        yield { streamName: stream, revision: recorded.revision, digest, ...bytes };
      }
    }
  }

  /** Every record of `$all` but the server's own, page by page. */
  private async *allRecords(): AsyncGenerator<ClientRecordedEvent> {
    let after: GlobalPosition | undefined;
    for (;;) {
      const read = this.client.readAll({
        fromPosition: after === undefined ? START : toClientPosition(after),
        direction: FORWARDS,
        maxCount: this.readPageSize,
      });
      let received = 0;
      let lastSeen: GlobalPosition | undefined;
      for await (const resolved of iterateClientRead(read, (error) =>
        mapClientError(error, { operation: 'readAll' }),
      )) {
        received += 1;
        const recorded = resolved.event;
        if (recorded === undefined) continue;
        const position = fromClientPosition(recorded.position);
        if (after !== undefined && !isAfter(position, after)) continue;
        lastSeen = position;
        if (!isSystemEvent(recorded)) yield recorded;
      }
      if (received < this.readPageSize || lastSeen === undefined) return;
      after = lastSeen;
    }
  }

  /** The stream's last event, read from the leader: the predecessor a new event chains after. */
  private async chainHead(stream: StreamName): Promise<ChainHead> {
    const read = this.client.readStream(stream, {
      fromRevision: END,
      direction: BACKWARDS,
      maxCount: 1,
      requiresLeader: true,
    });
    try {
      for await (const resolved of iterateClientRead(read, (error) =>
        mapClientError(error, { operation: 'readStream', streamName: stream }),
      )) {
        const recorded = resolved.event;
        if (recorded === undefined) continue;
        const { digest } = splitChainDigest(recorded.metadata);
        return { revision: recorded.revision, eventId: recorded.id, digest: digest ?? undefined };
      }
    } catch (error) {
      if (isStoreError(error, 'StreamNotFound')) return emptyChainHead;
      throw error;
    }
    return emptyChainHead;
  }

  /** Not atomic across streams or appends: see eventstoredb-staged-appends.ts and docs/scale-out.md. */
  stageAppends(): StagedAppends {
    return eventStoreDbStagedAppends({
      append: (stream, events, options) => this.appendToStream(stream, events, options),
      revision: (stream) => this.streamRevision(stream),
      assertOpen: () => this.assertOpen(),
      maxStagedBytes: this.options.maxStagedBytes ?? 64 * 1024 * 1024,
      maxAppendBytes: this.maxAppendBytes,
    });
  }

  async *readStream(stream: StreamName, options: ReadStreamOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const direction = options.direction ?? 'forwards';
    const from = options.from ?? (direction === 'forwards' ? 'start' : 'end');
    const read = this.client.readStream(stream, {
      fromRevision: from === 'start' ? START : from === 'end' ? END : from,
      direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
      maxCount: options.maxCount,
    });
    for await (const resolved of iterateClientRead(read, (error) =>
      mapClientError(error, { operation: 'readStream', streamName: stream }),
    )) {
      const event = fromResolvedEvent(resolved);
      if (isLeft(event)) throw event.left;
      yield event.right;
    }
  }

  /** `fromPosition` is exclusive here and inclusive in the client, so the event at it is skipped. */
  async *readAll(options: ReadAllOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    let after =
      options.fromPosition === undefined || options.fromPosition === 'start' ? undefined : options.fromPosition;
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
    while (remaining > 0) {
      const read = this.client.readAll({
        fromPosition: after === undefined ? START : toClientPosition(after),
        direction: FORWARDS,
        maxCount: this.readPageSize,
      });
      let received = 0;
      let lastSeen: GlobalPosition | undefined;
      for await (const resolved of iterateClientRead(read, (error) =>
        mapClientError(error, { operation: 'readAll' }),
      )) {
        received += 1;
        const recorded = resolved.event;
        if (recorded === undefined) continue;
        const position = fromClientPosition(recorded.position);
        if (after !== undefined && !isAfter(position, after)) continue;
        lastSeen = position;
        if (isSystemEvent(recorded)) continue;
        const event = fromResolvedEvent(resolved);
        if (isLeft(event)) throw event.left;
        yield event.right;
        remaining -= 1;
        if (remaining <= 0) return;
      }
      if (received < this.readPageSize || lastSeen === undefined) return;
      after = lastSeen;
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    const from = options.fromPosition ?? 'start';
    // 'end' is pinned to a position now, so a resubscription after a drop loses nothing.
    const after: Promise<GlobalPosition | 'start'> =
      from === 'start'
        ? Promise.resolve('start')
        : from === 'end'
          ? this.headPosition().then((head) => head ?? 'start')
          : Promise.resolve(from);
    const subscription = resubscribingSubscription(this.client, {
      after,
      resubscribe: this.resubscribe,
      random: this.random,
      sleep: this.sleep,
      onDropped: this.options.onSubscriptionDropped,
    });
    this.subscriptions.add(subscription);
    return {
      [Symbol.asyncIterator]: () => subscription[Symbol.asyncIterator](),
      unsubscribe: async () => {
        this.subscriptions.delete(subscription);
        await subscription.unsubscribe();
      },
    };
  }

  /** Undefined: other hosts write to the same server, and only a read can tell what they wrote. */
  knownRevision(_stream: StreamName): KnownRevision | undefined {
    return undefined;
  }

  async streamRevision(stream: StreamName): Promise<bigint | undefined> {
    this.assertOpen();
    const read = this.client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 });
    try {
      for await (const resolved of iterateClientRead(read, (error) =>
        mapClientError(error, { operation: 'streamRevision', streamName: stream }),
      )) {
        if (resolved.event !== undefined) return resolved.event.revision;
      }
    } catch (error) {
      if (isStoreError(error, 'StreamNotFound')) return undefined;
      throw error;
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const open = [...this.subscriptions];
    this.subscriptions.clear();
    await Promise.all(open.map((subscription) => subscription.unsubscribe()));
    await this.client.dispose();
  }

  /** The position of the last record in `$all` (system records included), or undefined when empty. */
  async headPosition(): Promise<GlobalPosition | undefined> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 });
    for await (const resolved of iterateClientRead(read, (error) => mapClientError(error, { operation: 'readAll' }))) {
      if (resolved.event !== undefined) return fromClientPosition(resolved.event.position);
    }
    return undefined;
  }

  /**
   * Each attempt reads the stream's head, chains the batch after it and appends expecting exactly
   * that head (the chain fixes the predecessor). A writer racing in between refuses the append:
   * with a loose expectation ('any', 'stream_exists') the batch is chained again after its events.
   */
  private async appendWithRetry(
    stream: StreamName,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const context: ClientErrorContext = {
      operation: 'append',
      streamName: stream,
      expectedRevision: expected,
      eventCount: events.length,
    };
    const loose = expected === 'any' || expected === 'stream_exists';
    let outcomeUnknown = false;
    for (let attempt = 1; ; attempt += 1) {
      let failure: Error;
      try {
        const step = await this.chainAndAppend(stream, events, expected, context);
        switch (step.kind) {
          case 'appended':
            return step.result;
          case 'refused':
            return await this.resolveRefusedAppend(stream, events, expected, step.refusal);
          case 'raced':
            if (!loose || attempt >= this.appendRetry.maxAttempts)
              return await this.resolveRefusedAppend(stream, events, expected, step.refusal);
            continue;
          default: {
            const unreachable: never = step;
            return unreachable;
          }
        }
      } catch (error) {
        failure = error as Error;
      }
      const outcome = failureOutcome(failure);
      if (outcome === 'rejected') throw failure;
      if (outcome === 'unknown') {
        outcomeUnknown = true;
        const lookup = await this.lookupBatch(stream, events, expected).catch(
          (error: unknown): BatchLookup => ({ kind: 'undecided', detail: String(error) }),
        );
        if (lookup.kind === 'stored')
          return { nextExpectedRevision: lookup.last.revision, position: lookup.last.position };
        if (lookup.kind === 'conflict') throw duplicateEventId(lookup.eventId, stream, lookup.detail);
      }
      if (attempt >= this.appendRetry.maxAttempts) {
        throw outcomeUnknown
          ? appendOutcomeUnknown(
              stream,
              events.map((event) => event.id),
              attempt,
              { cause: failure },
            )
          : failure;
      }
      const delayMs = retryDelay(attempt, this.appendRetry, this.random);
      this.options.onAppendRetry?.({ streamName: stream, attempt, delayMs, outcome, error: failure });
      await this.sleep(delayMs);
    }
  }

  /** One attempt: read the head, check the expectation, chain after the head and append expecting it. */
  private async chainAndAppend(
    stream: StreamName,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    context: ClientErrorContext,
  ): Promise<ChainedAppend> {
    const head = await this.chainHead(stream);
    const refusal = expectationRefusal(stream, expected, head.revision);
    if (refusal !== undefined || isRetryAtHead(head, events)) return { kind: 'refused', refusal };
    const data = chainEvents(events, head.digest);
    assertAppendSize(stream, data, this.maxAppendBytes);
    const chainedAfter = head.revision ?? 'no_stream';
    let written: Awaited<ReturnType<EventStoreDbClient['appendToStream']>>;
    try {
      written = await this.client.appendToStream(stream, data, {
        expectedRevision: toClientExpectedRevision(chainedAfter),
        requiresLeader: true,
      });
    } catch (error) {
      const mapped = mapClientError(error, context);
      if (isStoreError(mapped, 'WrongExpectedVersion')) return { kind: 'raced', refusal: mapped };
      throw mapped;
    }
    // A connection string with throwOnAppendFailure=false reports the refusal instead of throwing it.
    if (written.success)
      return { kind: 'appended', result: await this.confirmAppend(stream, events, written.nextExpectedRevision) };
    const actual = written.nextExpectedRevision < 0n ? 'no_stream' : written.nextExpectedRevision;
    return { kind: 'raced', refusal: wrongExpectedVersion(stream, chainedAfter, actual) };
  }

  /** Read the last appended event back: its `$all` position is the one reads and subscriptions report. */
  private async confirmAppend(
    stream: StreamName,
    events: readonly EventToAppend[],
    lastRevision: bigint,
  ): Promise<AppendResult> {
    const [stored] = await this.readSlice(stream, { from: lastRevision, direction: 'backwards', maxCount: 1 });
    const expectedId = (events[events.length - 1] as EventToAppend).id;
    if (stored === undefined || stored.revision !== lastRevision || !sameEventId(stored.id, expectedId)) {
      throw eventStoreDbError(
        'unknown',
        'append',
        stream,
        `the server reported the append at revision ${lastRevision}, but reading it back found ${stored === undefined ? 'nothing' : `event ${stored.id} at revision ${stored.revision}`} instead of ${expectedId}`,
      );
    }
    return { nextExpectedRevision: stored.revision, position: stored.position };
  }

  /**
   * The server refused the expected revision. If the batch is already stored this is a retry and
   * gets the original result; if only part of it is, it is not the same batch.
   */
  private async resolveRefusedAppend(
    stream: StreamName,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    refusal: StoreError | undefined,
  ): Promise<AppendResult> {
    const lookup = await this.lookupBatch(stream, events, expected);
    switch (lookup.kind) {
      case 'stored':
        return { nextExpectedRevision: lookup.last.revision, position: lookup.last.position };
      case 'conflict':
        throw duplicateEventId(lookup.eventId, stream, lookup.detail);
      case 'absent':
      case 'undecided':
        throw (
          refusal ??
          duplicateEventId(
            (events[0] as EventToAppend).id,
            stream,
            lookup.kind === 'undecided' ? lookup.detail : 'the stream ends with an event of this batch',
          )
        );
      default: {
        const unreachable: never = lookup;
        return unreachable;
      }
    }
  }

  /** Like findAppendedBatch, but reading from the leader so a fresh write is seen. */
  private async lookupBatch(
    stream: StreamName,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<BatchLookup> {
    const range = batchSearchRange(expected, events.length, this.retrySearchWindow);
    const slice = await this.readSlice(stream, range);
    if (range.direction === 'backwards') slice.reverse();
    return lookupBatch(
      slice,
      events.map((event) => event.id),
    );
  }

  private async appendNothing(stream: StreamName, expected: ExpectedRevision): Promise<AppendResult> {
    const last = await this.streamRevision(stream);
    assertExpectedRevision(stream, expected, last);
    if (last === undefined) return { nextExpectedRevision: -1n, position: (await this.headPosition()) ?? origin };
    const [stored] = await this.readSlice(stream, { from: last, direction: 'backwards', maxCount: 1 });
    return { nextExpectedRevision: last, position: stored?.position ?? origin };
  }

  /** A bounded read from the leader; a missing stream reads as empty. */
  private async readSlice(stream: StreamName, request: BatchSearchRange): Promise<RecordedEvent[]> {
    const read = this.client.readStream(stream, {
      fromRevision: request.from === 'start' ? START : request.from === 'end' ? END : request.from,
      direction: request.direction === 'forwards' ? FORWARDS : BACKWARDS,
      maxCount: request.maxCount,
      requiresLeader: true,
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of iterateClientRead(read, (error) =>
        mapClientError(error, { operation: 'readStream', streamName: stream }),
      )) {
        const event = fromResolvedEvent(resolved);
        if (isLeft(event)) throw event.left;
        events.push(event.right);
      }
    } catch (error) {
      if (isStoreError(error, 'StreamNotFound')) return [];
      throw error;
    }
    return events;
  }

  private assertOpen(): void {
    if (this.closed) throw storeClosed();
  }
}
