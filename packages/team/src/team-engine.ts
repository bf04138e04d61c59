import {
  type IdSource,
  type MessageId,
  type SessionId,
  type SessionRole,
  type TeamId,
  type UserMessage,
  type WritableEvent,
  leadOf,
} from '@teamlog/events';
import {
  type SendRejection,
  type SessionReport,
  type SessionStreamState,
  type TeamCommand,
  type TeamStreamState,
  type TeamWriteEvent,
  decideSessionLoop,
  decideTeam,
  refuseUnlisted,
} from '@teamlog/domain';
import type { Either } from 'fp-ts/Either';
import {
  type AppendOptions,
  type AppendResult,
  type AppendSettled,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  appendSettled,
  sessionHeaderStream,
  sessionStream,
  isStoreError,
} from '@teamlog/store';
import type { AcceptedListener, AcceptedNotice } from './accepted-notice';
import { type WriteContext, appendWritable, writableEvents } from './event-writer';
import { FoldCache } from './fold-cache';
import { FoldedStream } from './folded-stream';
import { type HeldKey, type HeldWork, Hold, KeyedLock } from './keyed-lock';
import { type SessionSnapshot, sessionSnapshot } from './session-snapshot';
import { TeamLogError, type TeamLogFault, sendAborted } from './team-log-errors';

export interface TeamEngineOptions {
  readonly store: EventStore;
  readonly ids: IdSource;
  /** Milliseconds since the epoch (the TeamLog's clock, read as a number). */
  readonly now: () => number;
  readonly onAccepted: AcceptedListener;
  /** Reports a listener's error; the acceptance it was told about stands. */
  readonly onListenerError: (error: unknown) => void;
  readonly maxAttempts: number;
  /** The most streams whose folds are kept between operations. */
  readonly foldCacheSize: number;
}

export interface NewSession {
  readonly sessionId: SessionId;
  readonly teamId: TeamId;
  readonly role: SessionRole;
  readonly name: string;
  readonly cwd?: string;
  /** The team's readable name; only on a Lead. */
  readonly teamName?: string;
}

/** What a host report wrote and where it left the session. */
export interface LoopOutcome {
  readonly session: SessionSnapshot;
  /** Messages claimed by this report, now in the conversation with the ids they were accepted under. */
  readonly claimed: readonly UserMessage[];
  /** Messages removed without a claim by this report (an aborted turn, a closed session). */
  readonly canceled: readonly MessageId[];
}

/** One decision written by `transact`: what to decide from the stream's fold, as whom, and what to return. */
export interface Transaction<E extends WritableEvent, R> {
  readonly decide: (fold: FoldedStream) => Either<TeamLogFault, readonly E[]>;
  /** The session on whose behalf the events are written, and its team (a session's team may come from its stream). */
  readonly writer: SessionId;
  readonly teamId: (fold: FoldedStream) => TeamId | undefined;
  /** Checked right before the append (and while waiting for the lock): once the append is issued, it is allowed to finish. */
  readonly signal?: AbortSignal;
  /** Under the same lock: the result, from what was appended and the fold it left. */
  readonly after: (events: readonly E[], fold: FoldedStream) => R;
}

const claimedBy = (events: readonly WritableEvent[]): UserMessage[] =>
  events.flatMap((event) => (event.type === 'user/message' ? [event.data] : []));
const canceledBy = (events: readonly WritableEvent[]): MessageId[] =>
  events.flatMap((event) => (event.type === 'teamlog/inbox/canceled' ? [...event.data.messageIds] : []));

/**
 * One transaction on its stream, from the lock to the commit: the work the stream's lock runs (a
 * free key starts it in the caller's turn), its hold on that lock, its append's options and what
 * the store runs when its append is known (appendSettled), so a send makes one object for all four. Committed, the events are folded as they
 * are (the append held the expected revision, so the stream is exactly the state plus these
 * events), the result made and the lock let go, all before the caller's promise settles; another
 * writer first: the transaction decides again from its second attempt, still holding the lock.
 */
class TransactCommit<E extends WritableEvent, R>
  extends Hold<SessionId>
  implements HeldWork<R>, AppendSettled<R>, AppendOptions
{
  /** Set by the attempt: what it appends, and the revision it expects (it is its own append's options). */
  events: readonly E[] = noEvents;
  expectedRevision: ExpectedRevision = 'any';

  constructor(
    private readonly engine: TeamEngine,
    readonly fold: FoldedStream,
    readonly run: Transaction<E, R>,
  ) {
    super();
  }

  /** Started by the stream's lock with itself as the hold (it is a Hold: see runHeld). */
  start(held: HeldKey): Promise<R> {
    // A current fold (the steady case) decides and appends at once; the commit settles the
    // caller's one promise. Anything else (a catch-up first, a retry) takes the loop.
    return this.fold.isCurrent(this.engine.store)
      ? this.engine.attempt(this)
      : this.engine.attempts(this.fold, this.run, held, 1);
  }

  committed(result: AppendResult): R {
    try {
      this.fold.applyAppended(this.events, result.nextExpectedRevision);
    } catch (error) {
      this.release();
      throw error;
    }
    return afterThenRelease(this.run, this.events, this.fold, this);
  }

  failed(error: unknown): Promise<R> {
    if (isStoreError(error, 'WrongExpectedVersion')) return this.engine.attempts(this.fold, this.run, this, 2);
    this.release();
    throw error;
  }
}

/** What a transaction has appended before its attempt: nothing (one shared list, not one per transaction). */
const noEvents: readonly never[] = Object.freeze([]);

/** A stream's fold before anything is read (one function for every cache miss, not a closure per look). */
const newFold = (sessionId: SessionId): FoldedStream => new FoldedStream(sessionId);

/**
 * The transaction's result, then the stream's lock let go in the same step: the next writer queued
 * on the stream starts now, and a caller that sends again as soon as this one resolves finds the
 * stream free instead of queueing behind a lock that is freed a microtask later (see KeyedLock).
 */
const afterThenRelease = <E extends WritableEvent, R>(
  run: Transaction<E, R>,
  events: readonly E[],
  fold: FoldedStream,
  held: HeldKey,
): R => {
  try {
    return run.after(events, fold);
  } finally {
    held.release();
  }
};

/**
 * The core every TeamLog operation runs on: one bounded cache holding one fold per stream, one
 * queue per stream inside this process, and the one `transact`. Internal: `transact` can write into
 * any inbox, so only the send path (send.ts), with the steer path its route was authorised by,
 * writes an acceptance.
 */
export class TeamEngine {
  private readonly locks = new KeyedLock<SessionId>();
  private readonly folds: FoldCache<SessionId, FoldedStream>;
  /** Tracked operations whose promise has not settled yet, and what `dispose` waits on while there are. */
  private running = 0;
  private drained: Promise<void> | undefined;
  private onDrained: (() => void) | undefined;
  private readonly contexts = new Map<SessionId, WriteContext>();
  private disposed = false;

  constructor(private readonly options: TeamEngineOptions) {
    this.folds = new FoldCache(options.foldCacheSize);
  }

  get ids(): IdSource {
    return this.options.ids;
  }

  /**
   * Run an operation unless disposed; `dispose` waits for every operation already running. Counted,
   * not kept: an operation costs one reaction to its promise and no entry in a set of them.
   */
  track<T>(operation: string, work: () => Promise<T>): Promise<T> {
    if (this.disposed) return Promise.reject(new TeamLogError({ code: 'TeamLogDisposed', operation }));
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      // Thrown before anything ran: a rejection like any other, nothing to wait for.
      return Promise.reject(error);
    }
    return this.counted(running);
  }

  /**
   * `track` for an operation that is one call of `work` on this engine with three arguments (a
   * send): the same, without a closure per operation.
   */
  trackCall<A, B, C, T>(
    operation: string,
    work: (engine: TeamEngine, a: A, b: B, c: C) => Promise<T>,
    a: A,
    b: B,
    c: C,
  ): Promise<T> {
    if (this.disposed) return Promise.reject(new TeamLogError({ code: 'TeamLogDisposed', operation }));
    let running: Promise<T>;
    try {
      running = work(this, a, b, c);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.counted(running);
  }

  /** An operation now running: `dispose` waits for it. */
  private counted<T>(running: Promise<T>): Promise<T> {
    this.running += 1;
    running.then(this.settledOne, this.settledOne);
    return running;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    // No operation starts once disposed, so the count only falls; every dispose waits for the same zero.
    if (this.running > 0) await (this.drained ??= new Promise<void>((resolve) => (this.onDrained = resolve)));
  }

  /** One tracked operation settled (one function for all of them, not a closure per operation). */
  private readonly settledOne = (): void => {
    this.running -= 1;
    if (this.running === 0) this.onDrained?.();
  };

  /** The one fold of a session's stream, from the cache. */
  private fold(sessionId: SessionId): FoldedStream {
    return this.folds.get(sessionId, newFold);
  }

  /**
   * Run `work` under the stream's lock with its fold brought up to date; `work` must copy out what
   * it keeps. `seeOthers`: what another process committed before this call is folded too (a read a
   * caller shows), not only what the store has heard of.
   */
  locked<T>(
    sessionId: SessionId,
    work: (fold: FoldedStream) => T | Promise<T>,
    options: { readonly signal?: AbortSignal; readonly seeOthers?: boolean } = {},
  ): Promise<T> {
    const fold = this.fold(sessionId);
    return this.locks.run(
      sessionId,
      async () => {
        // Checked first: a current fold (the usual case) costs no await.
        if (!fold.isCurrent(this.options.store, options.seeOthers))
          await fold.catchUp(this.options.store, options.seeOthers);
        return work(fold);
      },
      options.signal,
    );
  }

  /**
   * The stream's current fold when its lock is free, else undefined (the caller takes the lock).
   * Only for synchronous work done before the caller's turn ends: nothing can run between its start
   * and its end, so the lock would order nothing.
   */
  freeAndCurrent(sessionId: SessionId): FoldedStream | undefined {
    if (this.locks.isHeld(sessionId)) return undefined;
    const fold = this.fold(sessionId);
    return fold.isCurrent(this.options.store) ? fold : undefined;
  }

  /** A stream's fold when the store knows nothing was appended since, else undefined (see `current`). */
  currentNow(sessionId: SessionId): FoldedStream | undefined {
    const fold = this.fold(sessionId);
    return fold.isCurrent(this.options.store) ? fold : undefined;
  }

  /**
   * A stream's fold up to date for a caller that holds another stream's lock: at once when the
   * store knows nothing was appended since, else caught up under the stream's own lock. Only a
   * send's team critical section waits so, for its sender's stream, and nothing that holds a
   * member's lock waits for a team's: no deadlock.
   */
  current(sessionId: SessionId): FoldedStream | Promise<FoldedStream> {
    const fold = this.fold(sessionId);
    return fold.isCurrent(this.options.store) ? fold : this.locked(sessionId, () => fold);
  }

  readTeam<T>(teamId: TeamId, read: (state: TeamStreamState) => T): Promise<T> {
    return this.locked(leadOf(teamId), (fold) => read(fold.team), { seeOthers: true });
  }

  readSession<T>(sessionId: SessionId, read: (state: SessionStreamState) => T): Promise<T> {
    return this.locked(sessionId, (fold) => read(fold.session), { seeOthers: true });
  }

  snapshot(sessionId: SessionId): Promise<SessionSnapshot> {
    return this.readSession(sessionId, (state) => sessionSnapshot(sessionId, state));
  }

  /** The team's Lead session, checked: a TeamLog only serves teams teamlog created. */
  async assertTeam(teamId: TeamId): Promise<void> {
    const isLead = await this.readSession(
      leadOf(teamId),
      (state) => state.lifecycle.native && state.lifecycle.role === 'lead',
    );
    if (!isLead) throw new TeamLogError({ code: 'TeamNotFound', teamId });
  }

  /**
   * The one way the engine writes a decision: under the stream's lock, bring its fold up to date
   * (reading only what was appended since), decide, append with the revision the decision was made
   * on, and when another writer got there first, fold what it wrote and decide again. Queues on the
   * lock at once (before any await), so callers order their writes by calling order. The appended
   * events are folded as they are, not read back.
   */
  transact<E extends WritableEvent, R>(sessionId: SessionId, run: Transaction<E, R>): Promise<R> {
    return this.locks.runHeld(sessionId, new TransactCommit(this, this.fold(sessionId), run), run.signal);
  }

  /** The store every transaction appends to. */
  get store(): EventStore {
    return this.options.store;
  }

  /**
   * One attempt on a current fold, holding its lock: decide, then append with the transaction as
   * the continuation that folds what was appended, makes the result and lets the lock go when the
   * commit is durable. Lets the lock go itself on every path that does not reach the store.
   */
  attempt<E extends WritableEvent, R>(commit: TransactCommit<E, R>): Promise<R> {
    const { fold, run } = commit;
    const held: HeldKey = commit;
    let toAppend: EventToAppend[];
    try {
      const decision = run.decide(fold);
      if (decision._tag === 'Left') throw new TeamLogError(decision.left);
      const events = decision.right;
      if (events.length === 0) return Promise.resolve(afterThenRelease(run, events, fold, held));
      if (run.signal?.aborted === true) throw sendAborted(run.signal.reason);
      toAppend = writableEvents(events, this.write(run.writer, run.teamId(fold)));
      commit.events = events;
      commit.expectedRevision = fold.expectedRevision;
    } catch (error) {
      held.release();
      return Promise.reject(error);
    }
    return appendSettled(this.options.store, fold.streamName, toAppend, commit, commit);
  }

  /** The transaction from its `attempt`th try, catching the fold up first when it must; lets the lock go on every path. */
  async attempts<E extends WritableEvent, R>(
    fold: FoldedStream,
    run: Transaction<E, R>,
    held: HeldKey,
    attempt: number,
  ): Promise<R> {
    const { store, maxAttempts } = this.options;
    try {
      for (; attempt <= maxAttempts; attempt += 1) {
        if (!fold.isCurrent(store)) await fold.catchUp(store);
        const decision = run.decide(fold);
        if (decision._tag === 'Left') throw new TeamLogError(decision.left);
        const events = decision.right;
        if (events.length === 0) return afterThenRelease(run, events, fold, held);
        if (run.signal?.aborted === true) throw sendAborted(run.signal.reason);
        let last: bigint;
        try {
          last = (
            await appendWritable(
              store,
              fold.streamName,
              events,
              fold.expectedRevision,
              this.write(run.writer, run.teamId(fold)),
            )
          ).nextExpectedRevision;
        } catch (error) {
          if (isStoreError(error, 'WrongExpectedVersion')) continue;
          throw error;
        }
        // The append held the expected revision, so the stream is exactly the state plus these events.
        fold.applyAppended(events, last);
        return afterThenRelease(run, events, fold, held);
      }
      throw new TeamLogError({ code: 'ConcurrencyExhausted', streamName: fold.streamName, attempts: maxAttempts });
    } finally {
      // Already let go on success (afterThenRelease); a failure lets go here.
      held.release();
    }
  }

  /** A writer's context, made once per writer and team (a send's is the same for every message of its sender). */
  private write(writer: SessionId, teamId: TeamId | undefined): WriteContext {
    const kept = this.contexts.get(writer);
    if (kept !== undefined && kept.teamId === teamId) return kept;
    const { ids, now } = this.options;
    const context: WriteContext = teamId === undefined ? { ids, now, writer } : { ids, now, writer, teamId };
    // Bounded like the fold cache's streams: an evicted writer's context is made again.
    if (this.contexts.size >= this.options.foldCacheSize) this.contexts.clear();
    this.contexts.set(writer, context);
    return context;
  }

  decideTeam(teamId: TeamId, command: TeamCommand, writer: SessionId): Promise<readonly TeamWriteEvent[]> {
    return this.transact(leadOf(teamId), {
      decide: (fold) => decideTeam(command, fold.team),
      writer,
      teamId: () => teamId,
      after: (events) => events,
    });
  }

  report(sessionId: SessionId, report: SessionReport): Promise<LoopOutcome> {
    return this.transact(sessionId, {
      decide: (fold) => decideSessionLoop({ sessionId, report }, fold.session),
      writer: sessionId,
      // The team id for the write context comes from the stream.
      teamId: (fold) => fold.session.lifecycle.teamId,
      after: (events, fold) => ({
        session: sessionSnapshot(sessionId, fold.session),
        claimed: claimedBy(events),
        canceled: canceledBy(events),
      }),
    });
  }

  /** Tell the listener of a durable acceptance; its error is reported, never thrown. */
  tell(notice: AcceptedNotice): void {
    try {
      this.options.onAccepted(notice);
    } catch (error) {
      this.options.onListenerError(error);
    }
  }

  /** Which refusal explains an address that is not on the roster: another team's session, or nothing. */
  async refuseUnlisted(teamId: TeamId, address: string): Promise<SendRejection> {
    let valid: boolean;
    try {
      sessionStream(address as SessionId);
      valid = true;
    } catch {
      valid = false;
    }
    if (!valid) return { code: 'UnknownTarget', target: address };
    // A one-off fold: unknown addresses must not grow the cache.
    const fold = new FoldedStream(address as SessionId);
    await fold.catchUp(this.options.store);
    const { lifecycle } = fold.session;
    return refuseUnlisted(teamId, address, lifecycle.native ? lifecycle.teamId : undefined);
  }

  /** A new session: its header stream, then its own stream starting with `teamlog/session/created`. */
  async createSession(session: NewSession): Promise<void> {
    const { sessionId, teamId, role, name } = session;
    const lead = leadOf(teamId);
    const isMember = role === 'member';
    const header = {
      type: 'session',
      version: 4,
      id: sessionId,
      createdAt: this.options.now(),
      isSeeded: false,
      delegationDepth: isMember ? 1 : 0,
      ...(session.cwd === undefined ? {} : { cwd: session.cwd }),
      ...(isMember ? { parentSession: lead, origin: 'subagent' } : {}),
    };
    const write: WriteContext = { ids: this.options.ids, now: this.options.now, writer: sessionId, teamId };
    await appendWritable(
      this.options.store,
      sessionHeaderStream(sessionId),
      [{ type: 'teamlog/session/header', data: { header, formatVersion: 4 } }],
      'no_stream',
      write,
    );
    const created: WritableEvent = {
      type: 'teamlog/session/created',
      data: {
        teamId,
        role,
        name,
        ...(isMember ? { parentSessionId: lead } : {}),
        ...(session.teamName === undefined ? {} : { teamName: session.teamName }),
      },
    };
    await appendWritable(this.options.store, sessionStream(sessionId), [created], 'no_stream', write);
  }
}
