import {
  type ContentBlock,
  type IdSource,
  type MessageId,
  type RelayedMessage,
  type SessionId,
  type SessionRole,
  type TeamId,
  type UserMessage,
  type WritableEvent,
  leadOf,
} from '@teamlog/events';
import {
  type AdmissionEvent,
  type AdmitTeamMessage,
  type Decider,
  type OpenToSend,
  type SendRejection,
  type SenderClosed,
  type SessionLoopRejection,
  type SenderClosure,
  type SessionLoopCommand,
  type SessionReport,
  type SessionStatus,
  type SessionStreamState,
  type TeamCommand,
  type TeamMessageRoute,
  type TeamRejection,
  type TeamStreamState,
  type TeamWriteEvent,
  admissionFor,
  refuseUnlisted,
  relayedMessage,
  routeTeamMessage,
} from '@teamlog/domain';
import { isLeft } from 'fp-ts/Either';
import {
  type AppendResult,
  type EventStore,
  type StreamName,
  WrongExpectedVersion,
  sessionHeaderStream,
  sessionStream,
} from '@teamlog/store';
import type { AcceptedListener } from './accepted-notice';
import { AppendJournal } from './append-journal';
import { type WriteContext, appendWritable } from './event-writer';
import { FoldCache } from './fold-cache';
import { FoldedStream } from './folded-stream';
import { KeyedLock } from './keyed-lock';
import { type SessionSnapshot, sessionSnapshot } from './session-snapshot';
import { TeamLogError, type TeamLogFault, sendAborted } from './team-log-errors';

/** The aggregates the engine runs, each one Decider (see @teamlog/domain). */
export interface TeamDeciders {
  readonly teamRoster: Decider<TeamCommand, TeamWriteEvent, TeamStreamState, TeamRejection>;
  readonly targetInbox: Decider<AdmitTeamMessage, AdmissionEvent, SessionStreamState, SendRejection>;
  readonly sessionLoop: Decider<SessionLoopCommand, WritableEvent, SessionStreamState, SessionLoopRejection>;
  readonly senderLifecycle: Decider<OpenToSend, never, SenderClosure, SenderClosed>;
}

export interface TeamEngineOptions {
  readonly store: EventStore;
  readonly deciders: TeamDeciders;
  readonly ids: IdSource;
  readonly clock: () => Date;
  readonly onAccepted: AcceptedListener;
  /** Reports a listener's error; the acceptance it was told about stands. */
  readonly onListenerError: (error: unknown) => void;
  readonly maxAttempts: number;
  /** The most streams whose folds are kept between operations (one entry holds every fold of its stream). */
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

/** How one transaction runs: what it decides, as whom it writes, and what it returns. */
interface Transaction<C, E extends WritableEvent, S, R> {
  readonly decider: Decider<C, E, S, TeamLogFault>;
  readonly command: C;
  /** The write context, from the state the decision is made on (a session's team comes from its stream). */
  readonly write: (state: S) => WriteContext;
  /** Checked right before the append (and while waiting for the lock): once the append is issued, it is allowed to finish. */
  readonly signal?: AbortSignal;
  /** Told the state the events were decided on, before they are appended (and folded into it). */
  readonly decidedOn?: (state: S) => void;
  /** Under the same lock: the result, from what was appended and the state it left. */
  readonly after: (events: readonly E[], state: S) => R;
}

/**
 * The folds of one stream: its session (inbox and loop), its team (a Lead's stream) and its sender
 * closure. The sender closure is a fold apart from the session's because it is caught up under the
 * sender's team lock, not the stream's own (see send); the journal spares it reading back what the
 * engine appended.
 */
interface StreamFolds {
  session?: FoldedStream<SessionStreamState>;
  team?: FoldedStream<TeamStreamState>;
  sender?: FoldedStream<SenderClosure>;
}

/** A routed send whose target is on the roster: the Lead, or a member. */
export type ListedRoute = TeamMessageRoute & { readonly target: { readonly kind: 'lead' | 'member' } };

/**
 * Hands a routed message to the capability that may admit it into its target's inbox (the Lead's
 * steer path, or the host's member adapter of the team). It must reach `TeamEngine.admit` without
 * awaiting anything first: the send's critical section queues the admission before it ends.
 */
export type SteerDispatch = (
  route: ListedRoute,
  message: RelayedMessage,
  signal: AbortSignal | undefined,
) => Promise<MessageId>;

export interface SendOrder {
  readonly teamId: TeamId;
  readonly sender: SessionId;
  readonly address: string;
  readonly content: readonly ContentBlock[];
  readonly signal?: AbortSignal;
}

const claimedBy = (events: readonly WritableEvent[]): UserMessage[] =>
  events.flatMap((event) => (event.type === 'user/message' ? [event.data] : []));
const canceledBy = (events: readonly WritableEvent[]): MessageId[] =>
  events.flatMap((event) => (event.type === 'teamlog/inbox/canceled' ? [...event.data.messageIds] : []));

/**
 * The core every TeamLog operation runs on: bounded caches of the folds of the streams it touched,
 * one queue per stream inside this process, and the load/decide/append loop. Internal: it can
 * write into any inbox, so only the steer paths built by the composition root call `admit`.
 */
export class TeamEngine {
  private readonly locks = new KeyedLock<StreamName>();
  /** One cache, by stream: the folds the engine keeps of each stream it touched. */
  private readonly folds: FoldCache<StreamName, StreamFolds>;
  /** What this engine appended lately, so its other folds of a stream need not read it back. */
  private readonly journal: AppendJournal;
  private readonly inflight = new Set<Promise<unknown>>();
  private disposed = false;

  constructor(private readonly options: TeamEngineOptions) {
    this.journal = new AppendJournal(options.foldCacheSize);
    this.folds = new FoldCache(options.foldCacheSize);
  }

  get ids(): IdSource {
    return this.options.ids;
  }

  /** Run an operation unless disposed; `dispose` waits for every operation already running. */
  track<T>(operation: string, work: () => Promise<T>): Promise<T> {
    if (this.disposed) return Promise.reject(new TeamLogError({ code: 'TeamLogDisposed', operation }));
    const running = work();
    const forget = () => this.inflight.delete(running);
    this.inflight.add(running);
    running.then(forget, forget);
    return running;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private write(writer: SessionId | undefined, teamId: TeamId | undefined): WriteContext {
    return {
      ids: this.options.ids,
      clock: this.options.clock,
      ...(writer === undefined ? {} : { writer }),
      ...(teamId === undefined ? {} : { teamId }),
    };
  }

  /** The target inbox and the session loop fold the same stream state; one fold serves both. */
  private sessionFold(sessionId: SessionId): FoldedStream<SessionStreamState> {
    const stream = sessionStream(sessionId);
    const folds = this.folds.get(stream, () => ({}));
    return (folds.session ??= new FoldedStream(stream, sessionId, this.options.deciders.sessionLoop));
  }

  private teamFold(teamId: TeamId): FoldedStream<TeamStreamState> {
    const lead = leadOf(teamId);
    const stream = sessionStream(lead);
    const folds = this.folds.get(stream, () => ({}));
    return (folds.team ??= new FoldedStream(stream, lead, this.options.deciders.teamRoster));
  }

  private senderFold(sender: SessionId): FoldedStream<SenderClosure> {
    const stream = sessionStream(sender);
    const folds = this.folds.get(stream, () => ({}));
    return (folds.sender ??= new FoldedStream(stream, sender, this.options.deciders.senderLifecycle));
  }

  /** Read a team under its Lead stream's lock; `read` must copy out what it keeps. */
  readTeam<T>(teamId: TeamId, read: (state: TeamStreamState) => T): Promise<T> {
    const fold = this.teamFold(teamId);
    return this.locks.run(fold.streamName, async () => {
      await fold.catchUp(this.options.store, this.journal);
      return read(fold.state);
    });
  }

  /**
   * One send, straight through. A single critical section under the team's lock brings the team
   * and the sender's lifecycle up to date (reading only what was appended since), routes the send
   * once, and queues the admission on the target's lock before it ends: every send passes the team
   * lock in call order, so messages to one target are admitted in the order they were sent. A
   * sender belongs to one team, so its lifecycle fold is only ever caught up under that lock.
   */
  async send(order: SendOrder, dispatch: SteerDispatch): Promise<MessageId> {
    const team = this.teamFold(order.teamId);
    const sender = this.senderFold(order.sender);
    const routed = await this.locks.run(
      team.streamName,
      async () => {
        await team.catchUp(this.options.store, this.journal);
        await sender.catchUp(this.options.store, this.journal);
        const route = routeTeamMessage(team.state.team, sender.state, order.sender, order.address);
        if (route._tag === 'Left') throw new TeamLogError(route.left);
        const { target } = route.right;
        if (target.kind === 'unlisted') return { kind: 'unlisted', address: target.address } as const;
        const message = relayedMessage(this.options.ids.messageId(), route.right.sender, order.content);
        const admitted = dispatch({ ...route.right, target }, message, order.signal);
        admitted.catch(() => undefined); // awaited right after the critical section; no unhandled-rejection warning meanwhile
        return { kind: 'queued', admitted } as const;
      },
      order.signal,
    );
    if (routed.kind === 'unlisted') throw new TeamLogError(await this.refuseUnlisted(order.teamId, routed.address));
    return routed.admitted;
  }

  readSession<T>(sessionId: SessionId, read: (state: SessionStreamState) => T): Promise<T> {
    const fold = this.sessionFold(sessionId);
    return this.locks.run(fold.streamName, async () => {
      await fold.catchUp(this.options.store, this.journal);
      return read(fold.state);
    });
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
   * The one way the engine writes a decision: under the stream's lock, bring the fold up to date
   * (reading only what was appended since), decide, append with the revision the decision was made
   * on, and when another writer got there first, fold what it wrote and decide again. The appended
   * events are folded as they are, not read back.
   */
  private transact<C, E extends WritableEvent, S, R>(fold: FoldedStream<S>, run: Transaction<C, E, S, R>): Promise<R> {
    const { store, maxAttempts } = this.options;
    return this.locks.run(
      fold.streamName,
      async () => {
        for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
          await fold.catchUp(store, this.journal);
          const decision = run.decider.decide(run.command, fold.state);
          if (isLeft(decision)) throw new TeamLogError(decision.left);
          if (decision.right.length === 0) return run.after([], fold.state);
          if (run.signal?.aborted === true) throw sendAborted(run.signal.reason);
          run.decidedOn?.(fold.state);
          let appended: AppendResult;
          try {
            appended = await appendWritable(
              store,
              fold.streamName,
              decision.right,
              fold.expectedRevision,
              run.write(fold.state),
            );
          } catch (error) {
            if (error instanceof WrongExpectedVersion) continue;
            throw error;
          }
          // The append held the expected revision, so the stream is exactly the state plus these events.
          fold.applyAppended(decision.right, appended.nextExpectedRevision);
          this.journal.record(
            fold.streamName,
            appended.nextExpectedRevision - BigInt(decision.right.length) + 1n,
            decision.right,
          );
          return run.after(decision.right, fold.state);
        }
        throw new TeamLogError({ code: 'ConcurrencyExhausted', streamName: fold.streamName, attempts: maxAttempts });
      },
      run.signal,
    );
  }

  decideTeam(teamId: TeamId, command: TeamCommand, writer: SessionId): Promise<readonly TeamWriteEvent[]> {
    return this.transact(this.teamFold(teamId), {
      decider: this.options.deciders.teamRoster,
      command,
      write: () => this.write(writer, teamId),
      after: (events) => events,
    });
  }

  report(sessionId: SessionId, report: SessionReport): Promise<LoopOutcome> {
    return this.transact(this.sessionFold(sessionId), {
      decider: this.options.deciders.sessionLoop,
      command: { sessionId, report },
      // The team id for the write context comes from the stream.
      write: (state) => this.write(sessionId, state.lifecycle.teamId),
      after: (events, state) => ({
        session: sessionSnapshot(sessionId, state),
        claimed: claimedBy(events),
        canceled: canceledBy(events),
      }),
    });
  }

  /**
   * Write a message into a target's inbox (host-only: reached through the steer paths). Queues on
   * the target's lock at once (before any await), so callers order admissions by calling order.
   * Once the append is issued it finishes, whatever the signal does.
   */
  admit(
    teamId: TeamId,
    target: SessionId,
    message: RelayedMessage,
    signal: AbortSignal | undefined,
  ): Promise<MessageId> {
    const sender = message.source.senderSessionId;
    let status: SessionStatus | undefined;
    return this.transact(this.sessionFold(target), {
      decider: this.options.deciders.targetInbox,
      command: { type: 'admit', teamId, target, message },
      write: () => this.write(sender, teamId),
      ...(signal === undefined ? {} : { signal }),
      decidedOn: (state) => (status = state.lifecycle.status),
      after: (events) => {
        // Events are only decided for a target that is not closed.
        if (events.length > 0 && status !== undefined && status !== 'closed') {
          this.tell({ teamId, target, sender, messageId: message.id, delivery: admissionFor(status).kind });
        }
        return message.id;
      },
    });
  }

  private tell(notice: Parameters<AcceptedListener>[0]): void {
    try {
      this.options.onAccepted(notice);
    } catch (error) {
      this.options.onListenerError(error);
    }
  }

  /** Which refusal explains an address that is not on the roster: another team's session, or nothing. */
  async refuseUnlisted(teamId: TeamId, address: string): Promise<SendRejection> {
    let stream: StreamName;
    try {
      stream = sessionStream(address as SessionId);
    } catch {
      return { code: 'UnknownTarget', target: address };
    }
    // A one-off fold: unknown addresses must not grow the cache.
    const fold = new FoldedStream(stream, address as SessionId, this.options.deciders.sessionLoop);
    await fold.catchUp(this.options.store, this.journal);
    return refuseUnlisted(teamId, address, fold.state.lifecycle.native ? fold.state.lifecycle.teamId : undefined);
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
      createdAt: this.options.clock().getTime(),
      isSeeded: false,
      delegationDepth: isMember ? 1 : 0,
      ...(session.cwd === undefined ? {} : { cwd: session.cwd }),
      ...(isMember ? { parentSession: lead, origin: 'subagent' } : {}),
    };
    const write = this.write(sessionId, teamId);
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
