import { assertExpectedRevision } from './append-rules';
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
  Subscription,
} from './event-store';
import { type GlobalPosition, comparePositions } from './global-position';
import { readStreamSlice } from './read-stream-slice';
import { type StagedAppends, type StagedStreamResult, StagingLedger } from './staged-appends';
import { InvalidAppend, StoreClosed, StreamNotFound } from './store-errors';
import type { StreamName } from './stream-name';

/** A read this store cannot serve: it kept the heads of its streams, not their events. */
export class PayloadsNotKept extends Error {
  override readonly name = 'PayloadsNotKept';
  constructor(
    readonly streamName: StreamName | '$all',
    what: string,
  ) {
    super(
      `${streamName === '$all' ? '$all' : `stream ${streamName}`}: ${what}: this store keeps no events (a one-shot replay, --store :memory:)`,
    );
  }
}

/**
 * The append rule this store can hold to: a non-empty type. Ids are not kept, so they are not
 * compared either, not even within one batch (a Set of every batch's ids cost 5% of a replay).
 */
const assertTypes = (stream: StreamName, events: readonly EventToAppend[]): void => {
  for (const event of events)
    if (event.type.length === 0) throw new InvalidAppend(`stream ${stream}: event ${event.id} has an empty type`);
};

/** What is kept of a stream: its length and its first and last event (a header's latest record, a session's first event). */
interface StreamHead {
  count: number;
  first: RecordedEvent;
  last: RecordedEvent;
}

/**
 * The store of a one-shot replay (`teamlog replay --store :memory:`, the bench's in-memory case):
 * every commit's events go to the commit participants (the inline views), which fold the
 * importer's own objects, and then nothing of them is kept but each stream's head (its length,
 * first and last event). So memory is the views plus the working set of one file, not every
 * payload of the replay.
 *
 * What it serves: appends and units checked against the heads (expected revisions; ids are not
 * kept, so no DuplicateEventId: the importer's ids are a function of stream and revision,
 * docs/historical-logs.md), `streamRevision`, `knownRevision`, and reads of what a head holds (a
 * stream of at most two events, its first event, its last). Anything else (a stream's middle, `$all`
 * behind the head, a subscription) throws PayloadsNotKept: a file whose session is already in the
 * store cannot have its prefix compared, and is rejected with that message. Not for the
 * conformance suite: it is deliberately not a general store.
 */
export class HeadsOnlyEventStore implements EventStore {
  private readonly heads = new Map<StreamName, StreamHead>();
  private readonly participants = new Set<CommitParticipant>();
  private nextCommit = 1n;
  private lastPosition: GlobalPosition | undefined;
  private closed = false;

  constructor(private readonly clock: () => Date = () => new Date()) {}

  async appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    assertTypes(stream, events);
    const last = this.lastRevision(stream);
    assertExpectedRevision(stream, options.expectedRevision ?? 'any', last);
    if (events.length === 0) return { nextExpectedRevision: last ?? -1n, position: this.headPosition() };
    const recorded = this.recordedOf(stream, Number((last ?? -1n) + 1n), events, this.clock());
    this.commitRecorded(recorded, [{ stream, from: 0, to: recorded.length }]);
    const lastRecorded = recorded[recorded.length - 1] as RecordedEvent;
    return { nextExpectedRevision: lastRecorded.revision, position: lastRecorded.position };
  }

  /** Batches wait in the unit (the caller's objects, not copies) until the commit hands them to the participants. */
  stageAppends(): StagedAppends {
    this.assertOpen();
    const ledger = new StagingLedger();
    const batches: Array<{ readonly stream: StreamName; readonly events: readonly EventToAppend[] }> = [];
    return {
      append: async (stream, events, options) => {
        assertTypes(stream, events);
        ledger.stage(stream, events.length, options);
        batches.push({ stream, events });
      },
      commit: async () => {
        ledger.finish();
        this.assertOpen();
        for (const staged of ledger.streams)
          assertExpectedRevision(staged.stream, staged.expected, this.lastRevision(staged.stream));
        const recordedAt = this.clock();
        const recorded: RecordedEvent[] = [];
        const ranges: Array<{ readonly stream: StreamName; readonly from: number; readonly to: number }> = [];
        const results = ledger.streams.map((staged): StagedStreamResult => {
          const start = Number((this.lastRevision(staged.stream) ?? -1n) + 1n);
          const from = recorded.length;
          for (const batch of batches) {
            if (batch.stream !== staged.stream) continue;
            for (const event of this.recordedOf(
              staged.stream,
              start + recorded.length - from,
              batch.events,
              recordedAt,
            ))
              recorded.push(event);
          }
          ranges.push({ stream: staged.stream, from, to: recorded.length });
          const last = recorded[recorded.length - 1];
          const result: AppendResult =
            recorded.length === from || last === undefined
              ? { nextExpectedRevision: BigInt(start) - 1n, position: this.headPosition() }
              : { nextExpectedRevision: last.revision, position: last.position };
          return { ...result, streamName: staged.stream, events: staged.events };
        });
        batches.length = 0;
        this.commitRecorded(recorded, ranges);
        return results;
      },
      abort: async () => {
        if (!ledger.finished) ledger.finish();
        batches.length = 0;
      },
    };
  }

  /** Hand a commit to the participants, then keep only the heads; a participant that throws fails it all. */
  private commitRecorded(
    recorded: readonly RecordedEvent[],
    ranges: ReadonlyArray<{ readonly stream: StreamName; readonly from: number; readonly to: number }>,
  ): void {
    if (recorded.length === 0) return;
    const prepared: CommitParticipant[] = [];
    try {
      for (const participant of this.participants) {
        this.assertNothingBehind(participant);
        prepared.push(participant);
        participant.prepare(recorded);
      }
    } catch (error) {
      prepared.forEach((participant) => participant.aborted());
      throw error;
    }
    for (const { stream, from, to } of ranges) {
      if (to === from) continue;
      const head = this.heads.get(stream);
      const last = recorded[to - 1] as RecordedEvent;
      if (head === undefined)
        this.heads.set(stream, { count: to - from, first: recorded[from] as RecordedEvent, last });
      else {
        head.count += to - from;
        head.last = last;
      }
    }
    this.lastPosition = (recorded[recorded.length - 1] as RecordedEvent).position;
    this.participants.forEach((participant) => participant.committed());
  }

  /** A participant must hold everything committed so far: this store cannot hand it what it missed. */
  private assertNothingBehind(participant: CommitParticipant): void {
    const { checkpoint } = participant;
    const behind =
      this.lastPosition !== undefined &&
      (checkpoint === undefined || comparePositions(checkpoint, this.lastPosition) < 0);
    if (behind) throw new PayloadsNotKept('$all', 'a commit participant joined after events were committed');
  }

  private recordedOf(
    stream: StreamName,
    start: number,
    events: readonly EventToAppend[],
    recordedAt: Date,
  ): RecordedEvent[] {
    const recorded = new Array<RecordedEvent>(events.length);
    for (let index = 0; index < events.length; index += 1) {
      const event = events[index] as EventToAppend;
      const position = { commit: this.nextCommit, prepare: this.nextCommit };
      // Uneven steps, as the in-memory store's: nothing may assume dense positions.
      this.nextCommit += BigInt(64 + event.type.length + (index % 7) * 8);
      recorded[index] = {
        streamName: stream,
        revision: BigInt(start + index),
        position,
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        recordedAt,
      };
    }
    return recorded;
  }

  participate(participant: CommitParticipant): Detach {
    this.participants.add(participant);
    return () => {
      this.participants.delete(participant);
    };
  }

  async *readStream(stream: StreamName, options: ReadStreamOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const head = this.heads.get(stream);
    if (head === undefined) throw new StreamNotFound(stream);
    if (head.count <= 2) {
      yield* readStreamSlice(head.count === 1 ? [head.first] : [head.first, head.last], options);
      return;
    }
    const direction = options.direction ?? 'forwards';
    const from = options.from ?? (direction === 'forwards' ? 'start' : 'end');
    const first = direction === 'forwards' && (from === 'start' || from === 0n);
    const last =
      direction === 'backwards' && (from === 'end' || (typeof from === 'bigint' && from >= head.last.revision));
    if (options.maxCount !== 1 || (!first && !last))
      throw new PayloadsNotKept(stream, 'only its first and last event are kept');
    yield first ? head.first : head.last;
  }

  /** Only what follows the head: nothing (the views are never behind it, see participate). */
  // biome-ignore lint/correctness/useYield: the port's readAll is a generator; this store never has an event to yield.
  async *readAll(options: ReadAllOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const from = options.fromPosition ?? 'start';
    if (this.lastPosition === undefined) return;
    if (from === 'start' || comparePositions(from, this.lastPosition) < 0)
      throw new PayloadsNotKept('$all', 'events behind its head were asked for');
  }

  subscribeToAll(): Subscription {
    throw new PayloadsNotKept('$all', 'a subscription was asked for');
  }

  knownRevision(stream: StreamName): KnownRevision {
    return { revision: this.lastRevision(stream) };
  }

  async streamRevision(stream: StreamName): Promise<bigint | undefined> {
    return this.lastRevision(stream);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private lastRevision(stream: StreamName): bigint | undefined {
    return this.heads.get(stream)?.last.revision;
  }

  private headPosition(): GlobalPosition {
    return this.lastPosition ?? { commit: 0n, prepare: 0n };
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosed();
  }
}
