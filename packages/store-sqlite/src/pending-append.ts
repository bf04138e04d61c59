import type {
  AppendResult,
  AppendSettled,
  EventToAppend,
  ExpectedRevision,
  GlobalPosition,
  RecordedEvent,
  StreamName,
} from '@teamlog/store';
import type { EncodedEvent } from './event-rows';

/** What an append hands participants when none take part (shared: nothing ever adds to it). */
export const noRecorded: readonly RecordedEvent[] = Object.freeze([]);

/*
 * Every append's promise is made by one executor shared by all of them, which hands its resolving
 * functions out through these two slots: an executor closing over the append would be one more
 * closure and context per append.
 */
let capturedResolve: (value: unknown) => void = () => undefined;
let capturedReject: (error: unknown) => void = () => undefined;
const capture = (resolve: (value: unknown) => void, reject: (error: unknown) => void): void => {
  capturedResolve = resolve;
  capturedReject = reject;
};

/**
 * An append waiting for its group commit. The group's planning and settling write into its
 * mutable fields, so an append costs no planning, outcome or chain-end object of its own; every
 * attempt at the group sets them again (a refused attempt's values are never read).
 *
 * An append planned into a group's insert is also its own result (`planned`): its caller's
 * continuation (appendToStreamSettled) reads it during `committed` and keeps nothing of it, so a
 * send makes no result, position or BigInt of its own; a plain `appendToStream` caller, which may
 * keep its result, gets a plain object (`plainResult`).
 */
export class PendingAppend implements AppendResult {
  /** Its first revision, and where its rows start in the group's one insert (once planned there). */
  first = 0n;
  row = 0;
  /** The last revision its rows write (its result's next expected revision). */
  revision = 0n;
  /** Its last row's position once planned in a group's insert (rowids are far below 2^53). */
  lastPosition = 0;
  /** What it settles with after the commit: its result (itself when planned), or `error` when `failed`. */
  failed = false;
  result: AppendResult | undefined = undefined;
  error: unknown = undefined;
  /** The events it wrote, kept only while a participant takes part in commits. */
  recorded: readonly RecordedEvent[] = noRecorded;

  /** The caller's one promise, settled by `resolve` or `reject` after the group's commit. */
  readonly promise: Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;

  constructor(
    readonly stream: StreamName,
    readonly events: readonly EventToAppend[],
    readonly encoded: readonly EncodedEvent[],
    readonly expectedRevision: ExpectedRevision,
    /** The caller's continuation (appendToStreamSettled): its promise settles with what this makes of the outcome. */
    readonly settled: AppendSettled<unknown> | undefined,
  ) {
    this.promise = new Promise(capture);
    this.resolve = capturedResolve;
    this.reject = capturedReject;
  }

  get nextExpectedRevision(): bigint {
    return this.revision;
  }

  get position(): GlobalPosition {
    const position = BigInt(this.lastPosition);
    return { commit: position, prepare: position };
  }

  /** Settled by a group's insert: its rows end at `lastPosition`, its result is itself. */
  planned(lastPosition: number): void {
    this.lastPosition = lastPosition;
    this.failed = false;
    this.result = this;
  }

  /** Its result as a plain object a caller may keep (a planned append's fields are its own). */
  plainResult(): AppendResult {
    const { result } = this;
    if (result !== this) return result as AppendResult;
    return { nextExpectedRevision: this.revision, position: this.position };
  }
}
