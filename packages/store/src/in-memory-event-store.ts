import type { EventId } from '@teamlog/events';
import { assertExpectedRevision, assertValidBatch, resolveRetry, type StoredIdentity } from './append-rules';
import { AppendSignal, catchUpSubscription } from './catch-up-subscription';
import type {
  AppendOptions,
  AppendResult,
  CommitParticipant,
  Detach,
  EventStore,
  EventToAppend,
  KnownRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  Subscription,
} from './event-store';
import { type GlobalPosition, isAfter } from './global-position';
import { type StagedAppends, type StagedStreamResult, StagingLedger } from './staged-appends';
import { duplicateEventId, storeClosed, streamNotFound } from './store-errors';
import type { StreamName } from './stream-name';
import { readStreamSlice } from './read-stream-slice';
import { type PositionCursor, recordBatch } from './recorded-batch';

export interface InMemoryEventStoreOptions {
  readonly clock?: () => Date;
  /**
   * Deep-freeze every event's data and metadata as it is appended, so a writer or reader that
   * mutates one throws (tests run the engine and the views over such a store to check the
   * no-mutation contract). Off by default: freezing walks every payload.
   */
  readonly freezeEvents?: boolean;
}

/** Freeze a JSON value and everything in it. */
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
};

/**
 * For fast unit tests and for runs that keep nothing (`--store :memory:` replays), never the
 * default store. Events are kept as they were given, not copied: the contract is that nobody
 * mutates an event's data or metadata after appending it or while reading it (`freezeEvents`
 * enforces it). Positions advance in uneven steps, as EventStoreDB's byte offsets do, so code that
 * assumes dense positions fails here too.
 */
export class InMemoryEventStore implements EventStore {
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<StreamName, RecordedEvent[]>();
  private readonly ids = new Map<EventId, StoredIdentity>();
  private readonly appended = new AppendSignal();
  private readonly positions: PositionCursor = { nextCommit: 1n };
  private closed = false;
  private readonly clock: () => Date;
  private readonly freeze: boolean;
  private readonly participants = new Set<CommitParticipant>();

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
    this.freeze = options.freezeEvents ?? false;
  }

  async appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    assertValidBatch(stream, events);
    const retried = this.retryOf(stream, events);
    if (retried !== undefined) return retried;
    const existing = this.streams.get(stream) ?? [];
    const last = existing.length === 0 ? undefined : BigInt(existing.length - 1);
    assertExpectedRevision(stream, options.expectedRevision ?? 'any', last);
    if (events.length === 0) return { nextExpectedRevision: last ?? -1n, position: this.headPosition() };
    const recorded = this.recordedOf(stream, existing.length, events);
    this.prepareParticipants(recorded);
    this.store(recorded);
    this.participants.forEach((participant) => participant.committed());
    this.appended.notify();
    const lastRecorded = recorded[recorded.length - 1] as RecordedEvent;
    return { nextExpectedRevision: lastRecorded.revision, position: lastRecorded.position };
  }

  /** The events of one batch as they will be recorded, continuing a stream of `length` events (nothing is changed yet). */
  private recordedOf(stream: StreamName, length: number, events: readonly EventToAppend[]): RecordedEvent[] {
    return recordBatch(this.positions, stream, length, events, this.clock(), this.freeze ? deepFreeze : undefined);
  }

  private store(recorded: readonly RecordedEvent[]): void {
    for (const event of recorded) {
      const existing = this.streams.get(event.streamName) ?? [];
      this.streams.set(event.streamName, existing);
      existing.push(event);
      this.all.push(event);
      this.ids.set(event.id, event);
    }
  }

  /** Staged in memory as given; the commit checks every stream and id, then records them all in one synchronous step (participants included). */
  stageAppends(): StagedAppends {
    this.assertOpen();
    const ledger = new StagingLedger();
    const batches: Array<{ readonly stream: StreamName; readonly events: readonly EventToAppend[] }> = [];
    return {
      append: async (stream, events, options) => {
        assertValidBatch(stream, events);
        ledger.stage(stream, events.length, options);
        batches.push({ stream, events });
      },
      commit: async () => {
        ledger.finish();
        this.assertOpen();
        // Expectations first: a concurrent writer of the same events is a conflict, not a duplicate.
        for (const staged of ledger.streams)
          assertExpectedRevision(staged.stream, staged.expected, this.lastRevision(staged.stream));
        const seen = new Set<EventId>();
        for (const { stream, events } of batches) {
          for (const event of events) {
            if (this.ids.has(event.id) || seen.has(event.id))
              throw duplicateEventId(
                event.id,
                stream,
                'the id is already stored or staged twice; nothing of the unit was written',
              );
            seen.add(event.id);
          }
        }
        const recorded: RecordedEvent[] = [];
        const results = ledger.streams.map((staged): StagedStreamResult => {
          let length = this.streams.get(staged.stream)?.length ?? 0;
          let result: AppendResult = { nextExpectedRevision: BigInt(length) - 1n, position: this.headPosition() };
          for (const batch of batches) {
            if (batch.stream !== staged.stream || batch.events.length === 0) continue;
            const written = this.recordedOf(staged.stream, length, batch.events);
            for (const event of written) recorded.push(event);
            length += written.length;
            const last = written[written.length - 1] as RecordedEvent;
            result = { nextExpectedRevision: last.revision, position: last.position };
          }
          return { ...result, streamName: staged.stream, events: staged.events };
        });
        batches.length = 0;
        if (recorded.length > 0) this.prepareParticipants(recorded);
        this.store(recorded);
        if (recorded.length > 0) this.participants.forEach((participant) => participant.committed());
        this.appended.notify();
        return results;
      },
      abort: async () => {
        if (!ledger.finished) ledger.finish();
        batches.length = 0;
      },
    };
  }

  private lastRevision(stream: StreamName): bigint | undefined {
    const events = this.streams.get(stream);
    return events === undefined || events.length === 0 ? undefined : BigInt(events.length - 1);
  }

  /** The original result when the batch's ids are stored already (a retry); only then is a table of them built. */
  private retryOf(stream: StreamName, events: readonly EventToAppend[]): AppendResult | undefined {
    if (!events.some((event) => this.ids.has(event.id))) return undefined;
    const stored = new Map<EventId, StoredIdentity>();
    for (const event of events) {
      const identity = this.ids.get(event.id);
      if (identity !== undefined) stored.set(event.id, identity);
    }
    return resolveRetry(stream, events, stored);
  }

  participate(participant: CommitParticipant): Detach {
    this.participants.add(participant);
    return () => {
      this.participants.delete(participant);
    };
  }

  /** Each participant gets what it has not seen yet, then this commit; one that throws fails the commit for all. */
  private prepareParticipants(recorded: readonly RecordedEvent[]): void {
    const prepared: CommitParticipant[] = [];
    try {
      for (const participant of this.participants) {
        const { checkpoint } = participant;
        const behind = this.all.slice(checkpoint === undefined ? 0 : this.indexAfter(checkpoint));
        // Handed events (even the one that throws half-way) must go back to what it held before.
        prepared.push(participant);
        participant.prepare(behind.length === 0 ? recorded : [...behind, ...recorded]);
      }
    } catch (error) {
      prepared.forEach((participant) => participant.aborted());
      throw error;
    }
  }

  async *readStream(stream: StreamName, options: ReadStreamOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const events = this.streams.get(stream);
    if (events === undefined) throw streamNotFound(stream);
    yield* readStreamSlice(events, options);
  }

  async *readAll(options: ReadAllOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const from = options.fromPosition ?? 'start';
    const start = from === 'start' ? 0 : this.indexAfter(from);
    const end = options.maxCount === undefined ? this.all.length : Math.min(this.all.length, start + options.maxCount);
    for (let index = start; index < end; index += 1) yield this.all[index] as RecordedEvent;
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    const from = options.fromPosition ?? 'start';
    const start = from === 'start' ? undefined : from === 'end' ? this.lastPosition() : from;
    return catchUpSubscription(
      {
        readAfter: async (after, maxCount) => {
          const index = after === undefined ? 0 : this.indexAfter(after);
          return this.all.slice(index, index + maxCount);
        },
        appendCount: () => this.appended.count,
        waitForAppend: (seen, signal) => this.appended.wait(seen, signal),
      },
      start,
    );
  }

  readonly knownRevisionCovers = 'immediate';

  /** Always known: every append to this store goes through this object. */
  knownRevision(stream: StreamName): KnownRevision {
    const events = this.streams.get(stream);
    return { revision: events === undefined || events.length === 0 ? undefined : BigInt(events.length - 1) };
  }

  async streamRevision(stream: StreamName): Promise<bigint | undefined> {
    const events = this.streams.get(stream);
    return events === undefined || events.length === 0 ? undefined : BigInt(events.length - 1);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.appended.notify();
  }

  private indexAfter(position: GlobalPosition): number {
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (isAfter((this.all[middle] as RecordedEvent).position, position)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private lastPosition(): GlobalPosition | undefined {
    return this.all[this.all.length - 1]?.position;
  }

  private headPosition(): GlobalPosition {
    return this.lastPosition() ?? { commit: 0n, prepare: 0n };
  }

  private assertOpen(): void {
    if (this.closed) throw storeClosed();
  }
}
