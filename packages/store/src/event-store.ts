import type { EventId, JsonValue } from '@teamlog/events';
import type { StoredLink } from './chain-check';
import type { GlobalPosition } from './global-position';
import type { StageAppendsOptions, StagedAppends } from './staged-appends';
import type { StreamName } from './stream-name';

export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface EventToAppend {
  /** Chosen by the writer; appending the same ids again is a no-op returning the first result. */
  readonly id: EventId;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata?: JsonValue;
  /**
   * The JSON text of `data` exactly as the writer holds it (an imported event: its input line's own
   * bytes, docs/rules.md#stored-data-bytes). It must parse to `data`; a store that keeps JSON text
   * stores (and chains) this text instead of encoding `data`; other stores ignore it.
   */
  readonly dataText?: string;
  /**
   * The JSON text of `metadata` as the writer built it; like `dataText`, it must parse to
   * `metadata`, a store that keeps JSON text stores (and chains) it instead of encoding
   * `metadata`, and other stores ignore it.
   */
  readonly metadataText?: string;
  /**
   * True when the writer checked `data` against the catalog codec of `type` and the codec accepted
   * it (an imported event its reader validated). A store may hand this verdict on with the recorded
   * event to the commit participants of the same commit (the heads-only store does), so inline
   * views do not check the payload again; nothing read back carries it.
   */
  readonly catalog?: boolean;
}

export interface RecordedEvent {
  readonly streamName: StreamName;
  readonly revision: bigint;
  readonly position: GlobalPosition;
  readonly id: EventId;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: JsonValue | undefined;
  readonly recordedAt: Date;
  /** The writer's verdict on the payload (`EventToAppend.catalog`), where the store hands it on: true or absent. */
  readonly catalog?: boolean;
  /** `revision` as a number, where a store has it without a BigInt (the heads-only store): a fold's fast path. */
  readonly revisionNumber?: number;
  /**
   * Where `metadata` is a session event's stored metadata (`StoredEventMetadata`) the event holds
   * without making it (an importer's event the heads-only store records as itself): its `time`,
   * and in `metadataNormalised` its `normalised`. A fold's fast path, as `revisionNumber` is.
   */
  readonly metadataTime?: number;
  readonly metadataNormalised?: boolean;
}

export interface AppendResult {
  readonly nextExpectedRevision: bigint;
  readonly position: GlobalPosition;
}

/**
 * What an append's caller does with its outcome, run by the store when it is known: `committed` once
 * the append is durable, `failed` for every failure, a refusal before anything was queued included.
 * The append's promise settles with what they return (or rejects with what they throw).
 */
export interface AppendSettled<R> {
  committed(result: AppendResult): R;
  failed(error: unknown): R | Promise<R>;
}

export interface AppendOptions {
  readonly expectedRevision?: ExpectedRevision;
}

export type Direction = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  readonly from?: 'start' | 'end' | bigint;
  readonly direction?: Direction;
  readonly maxCount?: number;
}

export interface ReadAllOptions {
  /** Events strictly after this position (or from the beginning). */
  readonly fromPosition?: 'start' | GlobalPosition;
  readonly maxCount?: number;
}

export interface SubscribeToAllOptions {
  /** Deliver events strictly after this position; 'end' delivers only events appended from now on. */
  readonly fromPosition?: 'start' | 'end' | GlobalPosition;
}

/** A catch-up subscription: past events first, then every new append, until unsubscribed. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  unsubscribe(): Promise<void>;
}

/** What a store can tell of a stream's head without reading it. */
export interface KnownRevision {
  /** The stream's last revision; undefined when the stream has no events. */
  readonly revision: bigint | undefined;
}

/**
 * Takes part in a store's commits, in the same process: it is handed every event after its
 * checkpoint, in global order, inside each commit (before it is durable), and keeps its own state
 * in step (an inline projection: the views fold what is being appended instead of reading it
 * back). A store that keeps the participant's state in its own database writes it in the same
 * transaction. Events other writers committed since the checkpoint come first, so none is skipped.
 */
export interface CommitParticipant {
  /** The position of the last event the participant holds; undefined before the first. */
  readonly checkpoint: GlobalPosition | undefined;
  /**
   * Optional: a unit's events as it stages them, before its commit, for a store that folds a unit
   * batch by batch instead of holding it whole (the heads-only store of a one-shot replay). They
   * join the participant's working state only; the unit's commit then calls `prepare` (with the
   * events not staged this way, possibly none), its abort calls `aborted`. A throw fails the unit.
   */
  stage?(events: readonly RecordedEvent[]): void;
  /**
   * Optional, with `stage`: asked before each batch a unit would fold while the participant already
   * holds events, whether `aborted` could then undo that batch's fold exactly (back to what it held
   * before the unit's first staged batch). True: the unit may be staged while its input is validated
   * (one read of a file) although the participant holds something. False: the store holds this
   * batch and the unit's later ones and hands them to `prepare` instead, so an abort has nothing to undo.
   */
  undoesStaged?(events: readonly RecordedEvent[]): boolean;
  /**
   * Optional, with `stage`: an event type whose runs the participant folds from their ends alone
   * (the views, `assistant/chunk`: a run of them moves only a session's count and last time). A
   * store may then hand `stage` only the first and last event of each run of three or more events
   * of this type that follow each other in one batch (one stream, one append), not the ones between.
   */
  readonly foldsRunEndsOf?: string;
  /** Inside the commit. A throw fails the whole commit: nothing of it is kept, by the store or the participant. */
  prepare(events: readonly RecordedEvent[]): void;
  /** The commit whose events were prepared is durable. */
  committed(): void;
  /** The commit failed after prepare: the participant goes back to what it held before. */
  aborted(): void;
}

/** Ends a participation. */
export type Detach = () => void;

/** The port every store adapter implements and the conformance suite checks. */
export interface EventStore {
  appendToStream(stream: StreamName, events: readonly EventToAppend[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * Optional: `appendToStream` whose one promise settles with what `settled` makes of the outcome,
   * called as soon as the commit is durable (or the append failed), before any other caller of the
   * same commit resumes. Callers use `appendSettled` (append-settled.ts), which falls back on
   * `appendToStream(...).then(...)` where a store has no such method.
   */
  appendToStreamSettled?<R>(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions,
    settled: AppendSettled<R>,
  ): Promise<R>;
  /** A unit of appends to several streams that commit together or not at all (see staged-appends.ts). */
  stageAppends(options?: StageAppendsOptions): StagedAppends;
  /** Throws StreamNotFound (when iterated) if the stream has no events. */
  readStream(stream: StreamName, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>;
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>;
  subscribeToAll(options?: SubscribeToAllOptions): Subscription;
  /** The stream's last revision, or undefined when it has no events. */
  streamRevision(stream: StreamName): Promise<bigint | undefined>;
  /**
   * The stream's last revision as far as this store object can tell without reading, or undefined
   * when only a read can say. An answer covers every append committed through this object, and the
   * adapter answers only while it knows no other writer has written since: on SQLite as of this
   * turn of the event loop (another process's commit is seen from the next turn), on PostgreSQL as
   * of the last notification heard (another host's commit is seen when its notification arrives).
   * Readers use it to skip reading a stream nothing was appended to; appends keep their
   * expected-revision check as the guard, so an answer that lags only costs a retry.
   */
  knownRevision(stream: StreamName): KnownRevision | undefined;
  /**
   * How soon `knownRevision` covers another writer's commit: 'immediate' when an answer given now
   * covers every commit finished before this turn of the event loop (SQLite's data_version, stores
   * one object writes); 'notified' (the default when absent) when it waits for the commit's
   * notification (PostgreSQL's LISTEN). A read that must see what another process has already
   * committed reads the stream's tail unless the store is 'immediate'.
   */
  readonly knownRevisionCovers?: 'immediate' | 'notified';
  /**
   * Take part in this store's commits (see CommitParticipant); absent where the store cannot hand
   * a commit's events to the process before it is durable (server stores: fold them by catching up).
   */
  participate?(participant: CommitParticipant): Detach;
  /**
   * True when the store never reads `EventToAppend.dataText` (it keeps no JSON text), so a writer
   * need not build it; absent or false: build it where it has it.
   */
  readonly ignoresDataText?: boolean;
  /**
   * Every stored event as the bytes its hash-chain digest covers, with the digest stored beside it,
   * stream by stream in revision order (chain-check.ts); absent where the store keeps no chains.
   */
  readStoredLinks?(): AsyncIterable<StoredLink>;
  close(): Promise<void>;
}
