import {
  type AllStreamResolvedEvent,
  type AppendResult,
  type AppendToStreamOptions,
  CancelledError,
  type EventData,
  NotLeaderError,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ResolvedEvent,
  StreamNotFoundError,
  type SubscribeToAllOptions,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { Metadata, status } from '@grpc/grpc-js';
import type { ClientAllSubscription, EventStoreDbClient } from '@teamlog/store-eventstoredb';

/*
 * A small stand-in for the server, for unit tests of the adapter's own logic. It follows the
 * server where the adapter depends on it (inclusive readAll start, per-stream idempotency,
 * system events in $all, positions not dense), and can inject faults. Passing against it says
 * nothing about a real server: that is what the EVENTSTORE_URL conformance run is for.
 */

export type Fault = 'unavailable-before-write' | 'unavailable-after-write' | 'not-leader' | 'cancelled-before-write';

type StoredRecord = AllStreamResolvedEvent['event'] & {};

interface Waiter {
  wake: () => void;
}

const notLeader = (): NotLeaderError => {
  const metadata = new Metadata();
  metadata.set('exception', 'not-leader');
  metadata.set('leader-endpoint-host', 'node2');
  metadata.set('leader-endpoint-port', '2113');
  return new NotLeaderError(
    Object.assign(new Error('5 NOT_FOUND: Leader info available'), {
      code: status.NOT_FOUND,
      details: 'not leader',
      metadata,
    }),
  );
};

const decodeRecord = (
  streamId: string,
  revision: bigint,
  position: Position,
  event: EventData,
  created: Date,
): StoredRecord => {
  const base = { streamId, id: event.id, revision, type: event.type, created, position };
  const metadata =
    event.metadata === undefined
      ? undefined
      : event.metadata instanceof Uint8Array
        ? event.metadata
        : JSON.parse(JSON.stringify(event.metadata));
  if (event.contentType === 'application/json') {
    return { ...base, isJson: true, data: JSON.parse(JSON.stringify(event.data)), metadata };
  }
  return { ...base, isJson: false, data: event.data, metadata };
};

export class FakeEventStoreDbClient implements EventStoreDbClient {
  readonly log: StoredRecord[] = [];
  readonly faults: Fault[] = [];
  readonly calls = { append: 0, readStream: 0, readAll: 0, subscribeToAll: 0 };
  readonly subscribeStarts: Array<Position | 'start' | 'end'> = [];
  disposed = false;
  /** Like the connection-string option: false reports a refused expectation as `success: false`. */
  throwOnAppendFailure = true;
  private nextPosition = 1000n;
  private readonly waiters = new Set<Waiter>();
  private readonly dropErrors = new Set<(error: Error) => void>();

  /** A system record, as the server writes them ($stats, $metadata, projections). */
  appendSystemRecord(streamId: string, type: string): void {
    this.store(streamId, [
      { id: crypto.randomUUID(), contentType: 'application/json', type, data: {}, metadata: undefined },
    ]);
  }

  /** Drop every open subscription with a connection error. */
  dropSubscriptions(error: Error = new UnavailableError(undefined, 'connection reset')): void {
    [...this.dropErrors].forEach((drop) => drop(error));
  }

  async appendToStream(
    streamName: string,
    events: EventData[],
    options: AppendToStreamOptions = {},
  ): Promise<AppendResult> {
    this.calls.append += 1;
    const fault = this.faults.shift();
    if (fault === 'unavailable-before-write') throw new UnavailableError(undefined, 'connection refused');
    if (fault === 'cancelled-before-write') throw new CancelledError(undefined, 'cancelled');
    if (fault === 'not-leader') throw notLeader();
    let result: AppendResult;
    try {
      result = this.commit(streamName, events, options.expectedRevision ?? 'any');
    } catch (error) {
      if (this.throwOnAppendFailure || !(error instanceof WrongExpectedVersionError)) throw error;
      const current = error.actualVersion;
      return { success: false, nextExpectedRevision: current === 'no_stream' ? -1n : current, position: undefined };
    }
    if (fault === 'unavailable-after-write') throw new UnavailableError(undefined, 'connection lost after the write');
    return result;
  }

  async *readStream(streamName: string, options: ReadStreamOptions = {}): AsyncGenerator<ResolvedEvent> {
    this.calls.readStream += 1;
    const events = this.streamRecords(streamName);
    if (events.length === 0) throw new StreamNotFoundError(undefined, streamName);
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? 'start';
    const last = BigInt(events.length - 1);
    let index = from === 'start' ? 0n : from === 'end' ? (backwards ? last : last + 1n) : from;
    if (backwards && index > last) index = last;
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    for (let count = 0; count < max && index >= 0n && index <= last; count += 1, index += backwards ? -1n : 1n) {
      yield { event: events[Number(index)] as StoredRecord };
    }
  }

  async *readAll(options: ReadAllOptions = {}): AsyncGenerator<AllStreamResolvedEvent> {
    this.calls.readAll += 1;
    const backwards = options.direction === 'backwards';
    const from = options.fromPosition ?? 'start';
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const ordered = backwards ? [...this.log].reverse() : this.log;
    // Like the server, a position start is inclusive.
    const start =
      from === 'start' || from === 'end'
        ? 0
        : ordered.findIndex((record) =>
            backwards ? record.position.commit <= from.commit : record.position.commit >= from.commit,
          );
    if (from === 'end' && !backwards) return;
    if (start < 0) return;
    for (const record of ordered.slice(start, start + max)) yield { event: record };
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): ClientAllSubscription {
    this.calls.subscribeToAll += 1;
    const from = options.fromPosition ?? 'start';
    this.subscribeStarts.push(from);
    const regex =
      options.filter !== undefined && 'regex' in options.filter ? new RegExp(options.filter.regex) : undefined;
    let index =
      from === 'start'
        ? 0
        : from === 'end'
          ? this.log.length
          : this.log.findIndex((record) => record.position.commit >= from.commit);
    if (index < 0) index = this.log.length;
    let closed = false;
    let dropped: Error | undefined;
    const waiter: Waiter = { wake: () => undefined };
    const drop = (error: Error) => {
      dropped = error;
      waiter.wake();
    };
    this.dropErrors.add(drop);
    const server = this;
    async function* deliver(): AsyncGenerator<AllStreamResolvedEvent> {
      try {
        for (;;) {
          if (dropped !== undefined) throw dropped;
          if (closed) return;
          const record = server.log[index];
          if (record !== undefined) {
            index += 1;
            if (regex === undefined || regex.test(record.type)) yield { event: record };
            continue;
          }
          await new Promise<void>((resolve) => {
            waiter.wake = resolve;
            server.waiters.add(waiter);
          });
          server.waiters.delete(waiter);
        }
      } finally {
        server.dropErrors.delete(drop);
      }
    }
    const iterator = deliver();
    return {
      [Symbol.asyncIterator]: () => iterator,
      unsubscribe: async () => {
        closed = true;
        waiter.wake();
      },
    };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  streamRecords(streamName: string): StoredRecord[] {
    return this.log.filter((record) => record.streamId === streamName);
  }

  private commit(
    streamName: string,
    events: EventData[],
    expected: NonNullable<AppendToStreamOptions['expectedRevision']>,
  ): AppendResult {
    const existing = this.streamRecords(streamName);
    const current = existing.length === 0 ? -1n : BigInt(existing.length - 1);
    const wrong = () =>
      new WrongExpectedVersionError(undefined, { streamName, expected, current: current < 0n ? 'no_stream' : current });
    const idempotent = (first: bigint) => ({
      success: true,
      nextExpectedRevision: first + BigInt(events.length - 1),
      position: undefined,
    });
    const ids = existing.map((record) => record.id);
    if (expected === 'any' || expected === 'stream_exists') {
      if (expected === 'stream_exists' && current < 0n) throw wrong();
      const first = ids.indexOf(events[0]?.id ?? '');
      if (first >= 0) {
        if (events.every((event, offset) => ids[first + offset] === event.id)) return idempotent(BigInt(first));
        throw wrong();
      }
    } else {
      const expectedRevision = expected === 'no_stream' ? -1n : expected;
      if (expectedRevision < current) {
        const matches = events.every((event, offset) => ids[Number(expectedRevision) + 1 + offset] === event.id);
        if (matches) return idempotent(expectedRevision + 1n);
        throw wrong();
      }
      if (expectedRevision > current) throw wrong();
    }
    const stored = this.store(streamName, events);
    const last = stored[stored.length - 1] as StoredRecord;
    // The reply's position deliberately differs from the event's: the adapter must read back.
    return {
      success: true,
      nextExpectedRevision: last.revision,
      position: { commit: last.position.commit + 7n, prepare: last.position.prepare },
    };
  }

  private store(streamName: string, events: EventData[]): StoredRecord[] {
    const revision = BigInt(this.streamRecords(streamName).length);
    const stored = events.map((event, offset) => {
      const position = { commit: this.nextPosition, prepare: this.nextPosition };
      this.nextPosition += 97n + BigInt(offset);
      return decodeRecord(streamName, revision + BigInt(offset), position, event, new Date(1_700_000_000_000));
    });
    this.log.push(...stored);
    [...this.waiters].forEach((waiter) => waiter.wake());
    return stored;
  }
}
