import { BACKWARDS, END, type EventData, FORWARDS, START } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import {
  type AppendOptions,
  type AppendResult,
  assertExpectedRevision,
  assertValidBatch,
  DuplicateEventId,
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
  StoreClosed,
  type StreamName,
  StreamNotFound,
  type RetryPolicy,
  type SubscribeToAllOptions,
  type Subscription,
  WrongExpectedVersion,
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
import { toEventData } from './event-data-mapping';
import type { EventStoreDbClient } from './eventstoredb-client';
import { AppendOutcomeUnknown, EventStoreDbError } from './eventstoredb-errors';
import { toClientExpectedRevision } from './expected-revision-mapping';
import { type FailureOutcome, failureOutcome } from './failure-outcome';
import { fromClientPosition, toClientPosition } from './global-position-mapping';
import { fromResolvedEvent } from './recorded-event-mapping';
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
    const data = events.map(toEventData);
    assertAppendSize(stream, data, this.maxAppendBytes);
    return this.appendWithRetry(stream, events, data, expected);
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
      if (error instanceof StreamNotFound) return undefined;
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

  private async appendWithRetry(
    stream: StreamName,
    events: readonly EventToAppend[],
    data: EventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const context: ClientErrorContext = {
      operation: 'append',
      streamName: stream,
      expectedRevision: expected,
      eventCount: events.length,
    };
    let outcomeUnknown = false;
    for (let attempt = 1; ; attempt += 1) {
      let failure: Error;
      try {
        const written = await this.client.appendToStream(stream, data, {
          expectedRevision: toClientExpectedRevision(expected),
          requiresLeader: true,
        });
        // A connection string with throwOnAppendFailure=false reports the refusal instead of throwing it.
        if (written.success) return await this.confirmAppend(stream, events, written.nextExpectedRevision);
        const actual = written.nextExpectedRevision < 0n ? 'no_stream' : written.nextExpectedRevision;
        failure = new WrongExpectedVersion(stream, expected, actual);
      } catch (error) {
        failure = mapClientError(error, context);
      }
      if (failure instanceof WrongExpectedVersion) return this.resolveRefusedAppend(stream, events, expected, failure);
      const outcome = failureOutcome(failure);
      if (outcome === 'rejected') throw failure;
      if (outcome === 'unknown') {
        outcomeUnknown = true;
        const lookup = await this.lookupBatch(stream, events, expected).catch(
          (error: unknown): BatchLookup => ({ kind: 'undecided', detail: String(error) }),
        );
        if (lookup.kind === 'stored')
          return { nextExpectedRevision: lookup.last.revision, position: lookup.last.position };
        if (lookup.kind === 'conflict') throw new DuplicateEventId(lookup.eventId, stream, lookup.detail);
      }
      if (attempt >= this.appendRetry.maxAttempts) {
        throw outcomeUnknown
          ? new AppendOutcomeUnknown(
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

  /** Read the last appended event back: its `$all` position is the one reads and subscriptions report. */
  private async confirmAppend(
    stream: StreamName,
    events: readonly EventToAppend[],
    lastRevision: bigint,
  ): Promise<AppendResult> {
    const [stored] = await this.readSlice(stream, { from: lastRevision, direction: 'backwards', maxCount: 1 });
    const expectedId = (events[events.length - 1] as EventToAppend).id;
    if (stored === undefined || stored.revision !== lastRevision || !sameEventId(stored.id, expectedId)) {
      throw new EventStoreDbError(
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
    refusal: WrongExpectedVersion,
  ): Promise<AppendResult> {
    const lookup = await this.lookupBatch(stream, events, expected);
    switch (lookup.kind) {
      case 'stored':
        return { nextExpectedRevision: lookup.last.revision, position: lookup.last.position };
      case 'conflict':
        throw new DuplicateEventId(lookup.eventId, stream, lookup.detail);
      case 'absent':
      case 'undecided':
        throw refusal;
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
      if (error instanceof StreamNotFound) return [];
      throw error;
    }
    return events;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosed();
  }
}
