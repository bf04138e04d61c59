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
import { HeadRecordedEvent } from './head-recorded-event';
import { readStreamSlice } from './read-stream-slice';
import { SelfRecordedEvent } from './self-recorded-event';
import { type StagedAppends, type StagedStreamResult, StagingLedger } from './staged-appends';
import {
  type StoreError,
  invalidAppend,
  payloadsNotKept,
  storeClosed,
  streamNotFound,
  wrongExpectedVersion,
} from './store-errors';
import type { StreamName } from './stream-name';

/**
 * The append rule this store can hold to: a non-empty type. Ids are not kept, so they are not
 * compared either, not even within one batch (a Set of every batch's ids cost 5% of a replay).
 */
const assertTypes = (stream: StreamName, events: readonly EventToAppend[]): void => {
  for (const event of events)
    if (event.type.length === 0) throw invalidAppend(`stream ${stream}: event ${event.id} has an empty type`);
};

/** What is kept of a stream: its length and its first and last event (a header's latest record, a session's first event). */
interface StreamHead {
  count: number;
  first: RecordedEvent;
  last: RecordedEvent;
}

/** A stream's part of an open unit: its head so far and the revision its first staged event took. */
interface UnitHead extends StreamHead {
  readonly firstRevision: number;
}

/** Positions step with an event's index in its batch modulo this (see recordedOf). */
const positionStepPeriod = 7;

/**
 * Events per batch for a unit folded as it is staged: its batches are folded and dropped at once,
 * so small ones keep a batch's objects young (500k-event big Lead log: new-space survivors
 * 137 MB with batches of 2000, 99 MB with 252). A multiple of the step period, so a batch split
 * into batches of this many records the same positions as the batch whole.
 */
export const foldedBatchEvents = 36 * positionStepPeriod;

/** The event type every participant folds runs of from their ends (`CommitParticipant.foldsRunEndsOf`), when they all name one. */
const runTypeOf = (participants: readonly CommitParticipant[]): string | undefined => {
  const type = participants[0]?.foldsRunEndsOf;
  return participants.every((participant) => participant.foldsRunEndsOf === type) ? type : undefined;
};

const anotherUnitOpen = (): StoreError =>
  invalidAppend('a unit of this store holds staged events: commit or abort it before anything else is appended');

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
  /** The next event's commit position, a number: one BigInt per position, not two (a replay records every event). */
  private nextCommit = 1;
  private lastPosition: GlobalPosition | undefined;
  private closed = false;
  /** The unit that holds staged events: nothing else commits until it is committed or aborted. */
  private openUnit: object | undefined;

  constructor(private readonly clock: () => Date = () => new Date()) {}

  async appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    if (this.openUnit !== undefined) throw anotherUnitOpen();
    assertTypes(stream, events);
    const last = this.lastRevision(stream);
    assertExpectedRevision(stream, options.expectedRevision ?? 'any', last);
    if (events.length === 0) return { nextExpectedRevision: last ?? -1n, position: this.headPosition() };
    const recorded = this.recordedOf(stream, Number((last ?? -1n) + 1n), events, this.clock(), undefined);
    this.commitRecorded(recorded, [{ stream, from: 0, to: recorded.length }]);
    const lastRecorded = recorded[recorded.length - 1] as RecordedEvent;
    return { nextExpectedRevision: lastRecorded.revision, position: lastRecorded.position };
  }

  /**
   * A unit folds as it stages: each batch becomes recorded events at once (positions and revisions
   * taken then; a unit holds the store, so no other commit comes between) and, when every
   * participant can fold a unit before its commit (`CommitParticipant.stage`), goes to them at
   * once and is dropped: the unit keeps only its streams' heads, so a file of any size is folded
   * with one batch in memory. Otherwise its recorded batches wait for the commit. The commit checks
   * the expectations again and has the participants commit; an abort has them drop what they folded.
   *
   * Such a unit may be staged before its input is validated (one read of a file) when its abort
   * can undo the fold: participants that hold nothing go back exactly to empty, and participants
   * that hold something say per batch whether they can undo it (`undoesStaged`). A batch one of
   * them cannot undo (a session the views already hold, folded in place) and the unit's later
   * batches are held to the commit instead, so its abort still leaves the participants as they were.
   */
  stageAppends(): StagedAppends {
    this.assertOpen();
    const ledger = new StagingLedger();
    const participants = [...this.participants];
    const folding = participants.length > 0 && participants.every((participant) => participant.stage !== undefined);
    const undoing = participants.every((participant) => participant.undoesStaged !== undefined);
    const empty = (): boolean =>
      this.lastPosition === undefined && participants.every((participant) => participant.checkpoint === undefined);
    const undoable = folding && (undoing || empty());
    const held: RecordedEvent[] = [];
    /** The type whose runs every participant folds from their ends, if they all name the same (see CommitParticipant). */
    const runType = runTypeOf(participants);
    const heads = new Map<StreamName, UnitHead>();
    const order: StreamName[] = [];
    const recordedAt = this.clock();
    let staged = 0;
    /** Whether the unit's batches go to the participants as they are staged; false once one is held. */
    let foldsNow = folding;
    /** Whether an abort brings the participants back to empty (they held nothing at the first batch). */
    let fromEmpty = false;
    /** The next commit position when the unit's first batch was recorded. */
    let firstCommit = this.nextCommit;
    let prepared: CommitParticipant[] = [];
    const release = (): void => {
      if (this.openUnit === unitClaim) this.openUnit = undefined;
      held.length = 0;
      heads.clear();
    };
    const unitClaim = {};
    const dropFolded = (): void => {
      // The participants folded some of the unit: they go back to what they held before it.
      prepared.forEach((participant) => participant.aborted());
      prepared = [];
    };
    /** Before a batch is folded as staged: false when it must be held to the commit instead. */
    const foldsBatch = (stream: StreamName, recorded: readonly RecordedEvent[], expected: AppendOptions): boolean => {
      if (staged === 0) {
        fromEmpty = empty();
        // Another commit came between this unit's start and its first batch: its abort could no longer be undone.
        if (undoable && !undoing && !fromEmpty) {
          release();
          throw wrongExpectedVersion(
            stream,
            expected.expectedRevision ?? 'any',
            this.lastRevision(stream) ?? 'no_stream',
          );
        }
        for (const participant of participants) this.assertNothingBehind(participant);
      }
      return fromEmpty || participants.every((participant) => participant.undoesStaged?.(recorded) !== false);
    };
    return {
      stagesWhileValidating: undoable,
      ...(folding ? { batchEvents: foldedBatchEvents } : {}),
      append: async (stream, events, options = {}) => {
        this.assertOpen();
        assertTypes(stream, events);
        if (this.openUnit !== undefined && this.openUnit !== unitClaim) throw anotherUnitOpen();
        const head = heads.get(stream);
        if (head !== undefined && order[order.length - 1] !== stream)
          throw invalidAppend(
            `stream ${stream}: this store folds a unit as it is staged, so a stream's batches must follow each other`,
          );
        ledger.stage(stream, events.length, options);
        if (events.length === 0) return;
        this.openUnit = unitClaim;
        const start =
          head === undefined ? Number((this.lastRevision(stream) ?? -1n) + 1n) : head.firstRevision + head.count;
        if (staged === 0) firstCommit = this.nextCommit;
        const firstCommitOfBatch = this.nextCommit;
        let recorded = this.recordedOf(stream, start, events, recordedAt, foldsNow ? runType : undefined);
        if (foldsNow && !foldsBatch(stream, recorded, options)) {
          foldsNow = false;
          // Held to the commit, whose `prepare` takes every event: recorded again, whole, at the same positions.
          this.nextCommit = firstCommitOfBatch;
          recorded = this.recordedOf(stream, start, events, recordedAt, undefined);
        }
        if (foldsNow) {
          prepared = participants;
          try {
            for (const participant of participants) participant.stage?.(recorded);
          } catch (error) {
            dropFolded();
            release();
            if (!ledger.finished) ledger.finish();
            throw error;
          }
        } else for (const event of recorded) held.push(event);
        staged += events.length;
        const last = recorded[recorded.length - 1] as RecordedEvent;
        if (head === undefined) {
          heads.set(stream, {
            count: events.length,
            first: recorded[0] as RecordedEvent,
            last,
            firstRevision: start,
          });
          order.push(stream);
        } else {
          head.count += events.length;
          head.last = last;
        }
      },
      commit: async () => {
        ledger.finish();
        try {
          this.assertOpen();
          for (const stream of ledger.streams)
            assertExpectedRevision(stream.stream, stream.expected, this.lastRevision(stream.stream));
          const results = ledger.streams.map((entry): StagedStreamResult => {
            const head = heads.get(entry.stream);
            const result: AppendResult =
              head === undefined
                ? { nextExpectedRevision: this.lastRevision(entry.stream) ?? -1n, position: this.headPosition() }
                : { nextExpectedRevision: head.last.revision, position: head.last.position };
            return { ...result, streamName: entry.stream, events: entry.events };
          });
          const unitHeads = order.map((stream) => heads.get(stream) as UnitHead);
          if (staged > 0)
            this.commitUnit(folding ? participants : [...this.participants], held, unitHeads, prepared.length > 0);
          prepared = [];
          return results;
        } catch (error) {
          dropFolded();
          throw error;
        } finally {
          release();
        }
      },
      abort: async () => {
        if (!ledger.finished) ledger.finish();
        dropFolded();
        // A unit staged while validating onto participants that hold something leaves not even its
        // positions behind: the next unit records the ones it would have had this one been
        // validated whole first and never staged (a replay's output names its last position).
        if (undoable && staged > 0 && !fromEmpty && this.openUnit === unitClaim) this.nextCommit = firstCommit;
        release();
      },
    };
  }

  /** A unit's commit: the participants commit what they folded (or fold what was held), then the heads move. */
  private commitUnit(
    participants: readonly CommitParticipant[],
    held: readonly RecordedEvent[],
    unitHeads: readonly UnitHead[],
    folded: boolean,
  ): void {
    const prepared: CommitParticipant[] = [];
    try {
      for (const participant of participants) {
        if (!folded) this.assertNothingBehind(participant);
        prepared.push(participant);
        participant.prepare(held);
      }
    } catch (error) {
      // A participant that folded the unit as it was staged is dropped by the unit's own abort.
      if (!folded) prepared.forEach((participant) => participant.aborted());
      throw error;
    }
    for (const { count, first, last } of unitHeads) {
      const head = this.heads.get(last.streamName);
      if (head === undefined) this.heads.set(last.streamName, { count, first, last });
      else {
        head.count += count;
        head.last = last;
      }
    }
    // Streams follow each other in the unit, so the last one staged holds its last position.
    const last = unitHeads[unitHeads.length - 1]?.last;
    if (last !== undefined) this.lastPosition = last.position;
    participants.forEach((participant) => participant.committed());
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
    if (behind) throw payloadsNotKept('$all', 'a commit participant joined after events were committed');
  }

  /**
   * A batch's events as recorded. With `runType` (the participants fold runs of it from their ends),
   * the events inside a run of that type are left out: their positions are taken all the same.
   * A batch whose every event is recorded as itself is handed on as the very array given (the
   * caller's to give away: nothing changes an appended batch), so such a batch makes no array.
   */
  private recordedOf(
    stream: StreamName,
    start: number,
    events: readonly EventToAppend[],
    recordedAt: Date,
    runType: string | undefined,
  ): readonly RecordedEvent[] {
    // The participants fold these events at once and nothing keeps them but the heads: each is the
    // importer's own event with numbers for its revision and position, recorded as itself where it
    // can be (self-recorded-event.ts), else wrapped (head-recorded-event.ts).
    // Positions step as the in-memory store's do (recorded-batch.ts), unevenly, so nothing assumes dense ones.
    /** Undefined while every event so far was recorded as itself and none was left out. */
    let recorded: RecordedEvent[] | undefined;
    const last = events.length - 1;
    for (let index = 0; index <= last; index += 1) {
      const event = events[index] as EventToAppend;
      const commit = this.nextCommit;
      this.nextCommit += 64 + event.type.length + (index % positionStepPeriod) * 8;
      if (
        runType !== undefined &&
        index > 0 &&
        index < last &&
        event.type === runType &&
        (events[index - 1] as EventToAppend).type === runType &&
        (events[index + 1] as EventToAppend).type === runType
      ) {
        recorded ??= events.slice(0, index) as RecordedEvent[];
        continue;
      }
      const record =
        event instanceof SelfRecordedEvent
          ? event.recordAt(stream, start + index, commit, recordedAt)
          : new HeadRecordedEvent(stream, start + index, commit, event, recordedAt);
      if (recorded === undefined && record !== event) recorded = events.slice(0, index) as RecordedEvent[];
      recorded?.push(record);
    }
    return recorded ?? (events as readonly SelfRecordedEvent[]);
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
    if (head === undefined) throw streamNotFound(stream);
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
      throw payloadsNotKept(stream, 'only its first and last event are kept');
    yield first ? head.first : head.last;
  }

  /** Only what follows the head: nothing (the views are never behind it, see participate). */
  // biome-ignore lint/correctness/useYield: the port's readAll is a generator; this store never has an event to yield.
  async *readAll(options: ReadAllOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const from = options.fromPosition ?? 'start';
    if (this.lastPosition === undefined) return;
    if (from === 'start' || comparePositions(from, this.lastPosition) < 0)
      throw payloadsNotKept('$all', 'events behind its head were asked for');
  }

  subscribeToAll(): Subscription {
    throw payloadsNotKept('$all', 'a subscription was asked for');
  }

  readonly knownRevisionCovers = 'immediate';

  /** No payload is kept, so no JSON text either: an importer skips cutting each line's `data` text out. */
  readonly ignoresDataText: boolean = true;

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
    if (this.closed) throw storeClosed();
  }
}
