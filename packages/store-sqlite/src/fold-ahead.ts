import {
  type CommitParticipant,
  type EventToAppend,
  HeadRecordedEvent,
  type RecordedEvent,
  type StreamName,
} from '@teamlog/store';

/** What a unit's fold ahead needs from the store that opened the unit. */
export interface FoldAheadHost {
  /**
   * The participants a unit may fold as it stages (`CommitParticipant.stage`), with the store's last
   * position: every participant has `stage` and holds every committed event. Undefined otherwise.
   */
  readonly foldAheadParticipants: () =>
    | { readonly participants: readonly CommitParticipant[]; readonly last: bigint }
    | undefined;
  /** The participants go back to their committed state. */
  readonly aborted: () => void;
}

/** A stream's committed head revision (undefined for a stream with no event). */
export type HeadOf = (stream: StreamName) => bigint | undefined;

interface Folding {
  readonly participants: readonly CommitParticipant[];
  /** The store's last position when the unit's first batch was staged. */
  readonly before: bigint;
  /** The position the next staged event will take. */
  next: bigint;
  /** Each stream's head when its first batch was staged. */
  readonly heads: Map<StreamName, bigint | undefined>;
  lastStream: StreamName | undefined;
  /** When the unit's events are recorded (what its rows are written with). */
  readonly recordedAt: number;
}

/** Past this a revision or position is no exact number: the batch's events carry BigInts. */
const maxNumbered = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A batch's events as the participants get them, revisions and positions kept as numbers
 * (HeadRecordedEvent: the BigInts and the position object are made only if read). The SQLite
 * views read an event's revision as `revisionNumber` and few read its position, so a replay no
 * longer makes three BigInts and two objects an event that die at the next scavenge
 * (docs/historical-logs.md#memory). Undefined past the exact numbers.
 */
const numberedBatch = (
  stream: StreamName,
  firstRevision: bigint,
  firstPosition: bigint,
  events: readonly EventToAppend[],
  recordedAt: Date,
): RecordedEvent[] | undefined => {
  const count = BigInt(events.length);
  if (firstRevision < 0n || firstRevision + count > maxNumbered || firstPosition + count > maxNumbered)
    return undefined;
  const revision = Number(firstRevision);
  const position = Number(firstPosition);
  return events.map(
    (event, index) => new HeadRecordedEvent(stream, revision + index, position + index, event, recordedAt),
  );
};

/** A batch's events as the participants get them, with BigInt revisions and positions. */
const recordedBatch = (
  stream: StreamName,
  firstRevision: bigint,
  start: bigint,
  events: readonly EventToAppend[],
  recordedAt: Date,
): RecordedEvent[] => {
  const recorded = new Array<RecordedEvent>(events.length);
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index] as EventToAppend;
    const position = start + BigInt(index);
    recorded[index] = {
      streamName: stream,
      revision: firstRevision + BigInt(index),
      position: { commit: position, prepare: position },
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      recordedAt,
      // The writer's verdict on the payload, handed on to this unit's own participants only
      // (RecordedEvent.catalog): the views need not check an imported payload again.
      catalog: event.catalog === true,
    };
  }
  return recorded;
};

/**
 * A unit folded by its participants as it is staged (docs/rules.md#one-pass-import): each batch at
 * the positions and revisions its rows will take (the store's last position plus one, in staging
 * order; each stream's head plus one), so the commit hands the participants nothing. The fold
 * holds as long as nothing else committed before the unit wrote its rows; otherwise the
 * participants go back to their committed state and get the unit's events read back in the commit.
 * Shared by both kinds of unit (sqlite-written-unit.ts, sqlite-staged-appends.ts).
 */
export class FoldAhead {
  /** Folding while it lasts; 'off' once it stopped (or could not start) for this unit. */
  private folding: Folding | 'off' | undefined;
  /** The participants folded part of the unit: they must go back if it does not commit. */
  private touched = false;

  constructor(
    private readonly host: FoldAheadHost,
    /** The unit's recording time, asked once when the fold starts. */
    private readonly recordedAtNow: () => number,
  ) {}

  /** Whether the participants fold the unit as it is staged (started and not stopped). */
  get active(): boolean {
    return this.folding !== undefined && this.folding !== 'off';
  }

  /** The recording time the fold gave the events (undefined unless it is active). */
  get recordedAt(): number | undefined {
    return this.folding === undefined || this.folding === 'off' ? undefined : this.folding.recordedAt;
  }

  /**
   * Hand a staged batch (starting at offset `first` of its stream in the unit) to the participants,
   * `headOf` giving a stream's head at its first batch. Returns whether the fold is on: then
   * nothing of the unit needs keeping for the commit.
   */
  stage(stream: StreamName, first: number, events: readonly EventToAppend[], headOf: HeadOf): boolean {
    if (this.folding === undefined) {
      const found = this.host.foldAheadParticipants();
      this.folding =
        found === undefined
          ? 'off'
          : {
              participants: found.participants,
              before: found.last,
              next: found.last + 1n,
              heads: new Map(),
              lastStream: undefined,
              recordedAt: this.recordedAtNow(),
            };
    }
    const folding = this.folding;
    if (folding === 'off') return false;
    // The rows go stream after stream: a stream staged again after another moves positions.
    if (stream !== folding.lastStream && folding.heads.has(stream)) {
      this.stop();
      return false;
    }
    if (!folding.heads.has(stream)) folding.heads.set(stream, headOf(stream));
    folding.lastStream = stream;
    const firstRevision = (folding.heads.get(stream) ?? -1n) + 1n + BigInt(first);
    const recordedAt = new Date(folding.recordedAt);
    const start = folding.next;
    const recorded =
      numberedBatch(stream, firstRevision, start, events, recordedAt) ??
      recordedBatch(stream, firstRevision, start, events, recordedAt);
    folding.next += BigInt(events.length);
    this.touched = true;
    for (const participant of folding.participants) participant.stage?.(recorded);
    return true;
  }

  /** Under the write lock, before the unit's rows: whether the fold holds (nothing committed since it began, no head moved). */
  holds(before: bigint, headOf: HeadOf): boolean {
    const folding = this.folding;
    if (folding === undefined || folding === 'off' || folding.before !== before) return false;
    for (const [stream, revision] of folding.heads) if (headOf(stream) !== revision) return false;
    return true;
  }

  /** The fold stops for this unit; the participants go back to their committed state. */
  stop(): void {
    this.folding = 'off';
    this.restore();
  }

  /** The participants go back to their committed state, if they folded any of the unit. */
  restore(): void {
    if (!this.touched) return;
    this.touched = false;
    this.host.aborted();
  }

  /** The commit failed after the participants were handed the unit: they go back, whatever they folded. */
  abandon(): void {
    this.touched = false;
    this.host.aborted();
  }

  /** The unit committed: what the participants folded is theirs. */
  settle(): void {
    this.touched = false;
  }
}
