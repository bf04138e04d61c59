import { Either } from 'fp-ts/Either';
import {
  IdSource, MessageId, RelayedMessage, SessionId, SessionRole, TeamId, UserMessage, WritableEvent, leadOf,
} from '@teamlog/events';
import {
  AdmissionEvent, SendRejected, SenderClosure, SessionReport, SessionStatus, SessionStreamState, TeamCommand, TeamStreamState,
  TeamWriteEvent, UnknownTarget, admissionFor, decideSessionLoop, decideTargetInbox, decideTeam, evolveSessionStream,
  evolveSenderClosure, evolveTeamStream, initialSenderClosure, initialSessionStreamState, initialTeamStreamState, refuseUnlisted,
  senderClosureEventType,
} from '@teamlog/domain';
import { EventStore, StreamName, sessionHeaderStream, sessionStream } from '@teamlog/store';
import { AcceptedListener } from './accepted-notice';
import { decideAndAppend } from './decide-and-append';
import { WriteContext, appendWritable } from './event-writer';
import { FoldedStream } from './folded-stream';
import { KeyedLock } from './keyed-lock';
import { SessionSnapshot, sessionSnapshot } from './session-snapshot';
import { TeamLogDisposed, TeamNotFound } from './team-log-errors';

export interface TeamEngineOptions {
  readonly store: EventStore;
  readonly ids: IdSource;
  readonly clock: () => Date;
  readonly onAccepted: AcceptedListener;
  /** Reports a listener's error; the acceptance it was told about stands. */
  readonly onListenerError: (error: unknown) => void;
  readonly maxAttempts: number;
}

export interface NewSession {
  readonly sessionId: SessionId;
  readonly teamId: TeamId;
  readonly role: SessionRole;
  readonly name: string;
  readonly cwd?: string;
}

/** What a host report wrote and where it left the session. */
export interface LoopOutcome {
  readonly session: SessionSnapshot;
  /** Messages claimed by this report, now in the conversation with the ids they were accepted under. */
  readonly claimed: readonly UserMessage[];
  /** Messages removed without a claim by this report (an aborted turn, a closed session). */
  readonly canceled: readonly MessageId[];
}

const claimedBy = (events: readonly WritableEvent[]): UserMessage[] =>
  events.flatMap((event) => (event.type === 'user/message' ? [event.data] : []));
const canceledBy = (events: readonly WritableEvent[]): MessageId[] =>
  events.flatMap((event) => (event.type === 'teamlog/inbox/canceled' ? [...event.data.messageIds] : []));

/**
 * The core every TeamLog operation runs on: folds of the streams it touched, one queue per stream
 * inside this process, and the load/decide/append loop. Internal: it can write into any inbox, so
 * only the steer paths built by the composition root call `admit`.
 */
export class TeamEngine {
  private readonly locks = new KeyedLock<StreamName>();
  private readonly sessions = new Map<SessionId, FoldedStream<SessionStreamState>>();
  private readonly teams = new Map<TeamId, FoldedStream<TeamStreamState>>();
  /** Whether each sender has closed, apart from `sessions`: only touched under its team's lock (see readRoute). */
  private readonly senders = new Map<SessionId, FoldedStream<SenderClosure>>();
  private readonly inflight = new Set<Promise<unknown>>();
  private disposed = false;

  constructor(private readonly options: TeamEngineOptions) {}

  get ids(): IdSource {
    return this.options.ids;
  }

  /** Run an operation unless disposed; `dispose` waits for every operation already running. */
  track<T>(operation: string, work: () => Promise<T>): Promise<T> {
    if (this.disposed) return Promise.reject(new TeamLogDisposed(operation));
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

  private sessionFold(sessionId: SessionId): FoldedStream<SessionStreamState> {
    const existing = this.sessions.get(sessionId);
    if (existing !== undefined) return existing;
    const created = new FoldedStream(sessionStream(sessionId), initialSessionStreamState(), evolveSessionStream);
    this.sessions.set(sessionId, created);
    return created;
  }

  private teamFold(teamId: TeamId): FoldedStream<TeamStreamState> {
    const existing = this.teams.get(teamId);
    if (existing !== undefined) return existing;
    const created = new FoldedStream(sessionStream(leadOf(teamId)), initialTeamStreamState(teamId), evolveTeamStream);
    this.teams.set(teamId, created);
    return created;
  }

  /** Read a team under its Lead stream's lock; `read` must copy out what it keeps. */
  readTeam<T>(teamId: TeamId, read: (state: TeamStreamState) => T): Promise<T> {
    const fold = this.teamFold(teamId);
    return this.locks.run(fold.streamName, async () => {
      await fold.catchUp(this.options.store);
      return read(fold.state);
    });
  }

  /**
   * Read a team and a sender's lifecycle in one critical section under the team's lock. A sender
   * belongs to one team, so its lifecycle fold is only ever caught up under that lock; and every
   * send passes the same lock in call order, so checking the sender adds no reordering of sends.
   */
  readRoute<T>(teamId: TeamId, sender: SessionId, read: (team: TeamStreamState, sender: SenderClosure) => T): Promise<T> {
    const fold = this.teamFold(teamId);
    const senderFold =
      this.senders.get(sender) ?? new FoldedStream(sessionStream(sender), initialSenderClosure, evolveSenderClosure, (type) => type === senderClosureEventType);
    this.senders.set(sender, senderFold);
    return this.locks.run(fold.streamName, async () => {
      await fold.catchUp(this.options.store);
      await senderFold.catchUp(this.options.store);
      return read(fold.state, senderFold.state);
    });
  }

  readSession<T>(sessionId: SessionId, read: (state: SessionStreamState) => T): Promise<T> {
    const fold = this.sessionFold(sessionId);
    return this.locks.run(fold.streamName, async () => {
      await fold.catchUp(this.options.store);
      return read(fold.state);
    });
  }

  snapshot(sessionId: SessionId): Promise<SessionSnapshot> {
    return this.readSession(sessionId, (state) => sessionSnapshot(sessionId, state));
  }

  /** The team's Lead session, checked: a TeamLog only serves teams teamlog created. */
  async assertTeam(teamId: TeamId): Promise<void> {
    const isLead = await this.readSession(leadOf(teamId), (state) => state.lifecycle.native && state.lifecycle.role === 'lead');
    if (!isLead) throw new TeamNotFound(teamId);
  }

  decideTeam(teamId: TeamId, command: TeamCommand, writer: SessionId): Promise<TeamWriteEvent[]> {
    const fold = this.teamFold(teamId);
    return this.locks.run(fold.streamName, () =>
      decideAndAppend({
        store: this.options.store,
        folded: fold,
        decide: (state) => decideTeam(command, state),
        write: this.write(writer, teamId),
        maxAttempts: this.options.maxAttempts,
      }),
    );
  }

  report(sessionId: SessionId, report: SessionReport): Promise<LoopOutcome> {
    const fold = this.sessionFold(sessionId);
    return this.locks.run(fold.streamName, async () => {
      await fold.catchUp(this.options.store); // the team id for the write context comes from the stream
      const events = await decideAndAppend({
        store: this.options.store,
        folded: fold,
        decide: (state) => decideSessionLoop({ sessionId, report }, state),
        write: this.write(sessionId, fold.state.lifecycle.teamId),
        maxAttempts: this.options.maxAttempts,
      });
      return { session: sessionSnapshot(sessionId, fold.state), claimed: claimedBy(events), canceled: canceledBy(events) };
    });
  }

  /**
   * Write a message into a target's inbox (host-only: reached through the steer paths). Once the
   * append is issued it finishes, whatever the signal does.
   */
  admit(teamId: TeamId, target: SessionId, message: RelayedMessage, signal: AbortSignal | undefined): Promise<MessageId> {
    const fold = this.sessionFold(target);
    const sender = message.source.senderSessionId;
    return this.locks.run(
      fold.streamName,
      async () => {
        const decided: { on?: SessionStatus } = {};
        const events = await decideAndAppend<SessionStreamState, AdmissionEvent>({
          store: this.options.store,
          folded: fold,
          decide: (state): Either<SendRejected, AdmissionEvent[]> => {
            decided.on = state.lifecycle.status;
            return decideTargetInbox({ type: 'admit', teamId, target, message }, state);
          },
          write: this.write(sender, teamId),
          maxAttempts: this.options.maxAttempts,
          ...(signal === undefined ? {} : { signal }),
        });
        // Events are only decided for a target that is not closed.
        if (events.length > 0 && decided.on !== undefined && decided.on !== 'closed') {
          this.tell({ teamId, target, sender, messageId: message.id, delivery: admissionFor(decided.on).kind });
        }
        return message.id;
      },
      signal,
    );
  }

  private tell(notice: Parameters<AcceptedListener>[0]): void {
    try {
      this.options.onAccepted(notice);
    } catch (error) {
      this.options.onListenerError(error);
    }
  }

  /** Which refusal explains an address that is not on the roster: another team's session, or nothing. */
  async refuseUnlisted(teamId: TeamId, address: string): Promise<SendRejected> {
    let stream: StreamName;
    try {
      stream = sessionStream(address as SessionId);
    } catch {
      return new UnknownTarget(address);
    }
    // A one-off fold: unknown addresses must not grow the cache.
    const fold = new FoldedStream(stream, initialSessionStreamState(), evolveSessionStream);
    await fold.catchUp(this.options.store);
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
    await appendWritable(this.options.store, sessionHeaderStream(sessionId), [{ type: 'teamlog/session/header', data: { header, formatVersion: 4 } }], 'no_stream', write);
    const created: WritableEvent = {
      type: 'teamlog/session/created',
      data: { teamId, role, name, ...(isMember ? { parentSessionId: lead } : {}) },
    };
    await appendWritable(this.options.store, sessionStream(sessionId), [created], 'no_stream', write);
  }
}
