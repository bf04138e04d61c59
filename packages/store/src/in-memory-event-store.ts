import { EventId, JsonValue } from '@teamlog/events';
import { assertExpectedRevision, assertValidBatch, resolveRetry, StoredIdentity } from './append-rules';
import { AppendSignal, catchUpSubscription } from './catch-up-subscription';
import {
  AppendOptions, AppendResult, EventStore, EventToAppend, ReadAllOptions, ReadStreamOptions, RecordedEvent,
  SubscribeToAllOptions, Subscription,
} from './event-store';
import { GlobalPosition, isAfter } from './global-position';
import { StagedAppends, StagedStreamResult, StagingLedger } from './staged-appends';
import { DuplicateEventId, StoreClosed, StreamNotFound } from './store-errors';
import { StreamName } from './stream-name';
import { readStreamSlice } from './read-stream-slice';

interface PreparedEvent {
  /** A copy callers cannot mutate. */
  readonly event: EventToAppend;
  readonly data: JsonValue;
  /** The data's encoded size: positions advance by it. */
  readonly size: number;
}

/** One serialisation serves both the position step and the copy; throws before anything is written. */
const prepare = (event: EventToAppend): PreparedEvent => {
  const text = JSON.stringify(event.data);
  const metadata = event.metadata === undefined ? undefined : (JSON.parse(JSON.stringify(event.metadata)) as JsonValue);
  return { event: { ...event, ...(metadata === undefined ? {} : { metadata }) }, data: JSON.parse(text) as JsonValue, size: text.length };
};

export interface InMemoryEventStoreOptions {
  readonly clock?: () => Date;
}

/**
 * For fast unit tests, never the default. Positions advance by each event's encoded size, as
 * EventStoreDB's do, so code that assumes dense positions fails here too.
 */
export class InMemoryEventStore implements EventStore {
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<StreamName, RecordedEvent[]>();
  private readonly ids = new Map<EventId, StoredIdentity>();
  private readonly appended = new AppendSignal();
  private nextCommit = 1n;
  private closed = false;
  private readonly clock: () => Date;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
  }

  async appendToStream(stream: StreamName, events: readonly EventToAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    this.assertOpen();
    assertValidBatch(stream, events);
    const stored = new Map<EventId, StoredIdentity>();
    for (const event of events) {
      const identity = this.ids.get(event.id);
      if (identity !== undefined) stored.set(event.id, identity);
    }
    const retried = resolveRetry(stream, events, stored);
    if (retried !== undefined) return retried;
    const existing = this.streams.get(stream) ?? [];
    const last = existing.length === 0 ? undefined : BigInt(existing.length - 1);
    assertExpectedRevision(stream, options.expectedRevision ?? 'any', last);
    if (events.length === 0) return { nextExpectedRevision: last ?? -1n, position: this.headPosition() };
    const result = this.record(stream, events.map(prepare));
    this.appended.notify();
    return result;
  }

  /** Staged in memory (copied, so later changes by the caller do not leak in); the commit checks everything, then writes in one synchronous step. */
  stageAppends(): StagedAppends {
    this.assertOpen();
    const ledger = new StagingLedger();
    const batches: Array<{ readonly stream: StreamName; readonly events: readonly PreparedEvent[] }> = [];
    return {
      append: async (stream, events, options) => {
        assertValidBatch(stream, events);
        const prepared = events.map(prepare);
        ledger.stage(stream, events.length, options);
        batches.push({ stream, events: prepared });
      },
      commit: async () => {
        ledger.finish();
        this.assertOpen();
        // Expectations first: a concurrent writer of the same events is a conflict, not a duplicate.
        for (const staged of ledger.streams) assertExpectedRevision(staged.stream, staged.expected, this.lastRevision(staged.stream));
        const seen = new Set<EventId>();
        for (const { stream, events } of batches) {
          for (const { event } of events) {
            if (this.ids.has(event.id) || seen.has(event.id)) throw new DuplicateEventId(event.id, stream, 'the id is already stored or staged twice; nothing of the unit was written');
            seen.add(event.id);
          }
        }
        const results = ledger.streams.map((staged): StagedStreamResult => {
          let result: AppendResult = { nextExpectedRevision: this.lastRevision(staged.stream) ?? -1n, position: this.headPosition() };
          for (const batch of batches) if (batch.stream === staged.stream && batch.events.length > 0) result = this.record(staged.stream, batch.events);
          return { ...result, streamName: staged.stream, events: staged.events };
        });
        batches.length = 0;
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

  /** Write a checked, non-empty, prepared batch (nothing here can throw half-way). */
  private record(stream: StreamName, events: readonly PreparedEvent[]): AppendResult {
    const existing = this.streams.get(stream) ?? [];
    this.streams.set(stream, existing);
    const recordedAt = this.clock();
    for (const { event, data, size } of events) {
      const position = { commit: this.nextCommit, prepare: this.nextCommit };
      this.nextCommit += BigInt(64 + size);
      const recorded: RecordedEvent = { streamName: stream, revision: BigInt(existing.length), position, id: event.id, type: event.type, data, metadata: event.metadata, recordedAt };
      existing.push(recorded);
      this.all.push(recorded);
      this.ids.set(recorded.id, recorded);
    }
    const lastRecorded = existing[existing.length - 1] as RecordedEvent;
    return { nextExpectedRevision: lastRecorded.revision, position: lastRecorded.position };
  }

  async *readStream(stream: StreamName, options: ReadStreamOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const events = this.streams.get(stream);
    if (events === undefined) throw new StreamNotFound(stream);
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
    if (this.closed) throw new StoreClosed();
  }
}
