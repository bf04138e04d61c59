import {
  type ContentBlock,
  type MessageId,
  type RelayedMessage,
  type SessionId,
  type TeamId,
  leadOf,
} from '@teamlog/events';
import {
  type AdmissionEvent,
  type SendRejection,
  type SenderClosure,
  type SessionLifecycle,
  type SessionStatus,
  admissionFor,
  decideTargetInbox,
  relayedMessage,
  routeTeamMessage,
} from '@teamlog/domain';
import type { Either } from 'fp-ts/Either';
import type { FoldedStream } from './folded-stream';
import { parseSendRequest } from './send-request';
import type { ListedRoute, SteerPaths } from './steer-paths';
import type { TeamEngine, Transaction } from './team-engine';
import { TeamLogError, sendAborted } from './team-log-errors';

/*
 * A send, top to bottom (docs/architecture.md#the-send-path):
 *   1. parse the request;
 *   2. route it under the team's lock (the Lead stream's), reading the team and the sender once;
 *   3. ask the route's steer path (the Lead's own, or the host's member adapter) whose inbox it reaches;
 *   4. transact on that inbox: decide from the target's own stream, append, tell the listener.
 * Step 4 is queued on the target's lock before the team's lock is released: every send passes the
 * team's lock in call order, so messages to one target are admitted in the order they were sent.
 * A steady send passes it without taking it: with the lock free and both folds current, steps 2-4
 * run in the caller's turn, so no other send can come between them.
 */

/** The session a handle sends as, sealed in the handle. */
export interface Sender {
  readonly teamId: TeamId;
  readonly sessionId: SessionId;
}

export const send = (engine: TeamEngine, paths: SteerPaths, sender: Sender, request: unknown): Promise<MessageId> =>
  engine.trackCall('send', sendNow, paths, sender, request);

const sendNow = (engine: TeamEngine, paths: SteerPaths, sender: Sender, request: unknown): Promise<MessageId> => {
  // 1. Parse: a refused request writes nothing.
  const { target, content, signal } = parseSendRequest(request);
  if (signal?.aborted === true) throw sendAborted(signal.reason);
  const lead = leadOf(sender.teamId);
  // Steps 2-3 take no await when the team's lock is free and both folds are current (a steady
  // send): run at once, nothing can interleave, so the lock and its promises are skipped.
  const now = steadyRoute(engine, paths, sender, lead, target, content, signal);
  if (now !== undefined) return outcome(engine, sender, now);
  return engine
    .locked<Routed>(
      lead,
      async (leadFold) => {
        const from = sender.sessionId === lead ? leadFold : await engine.current(sender.sessionId);
        const done = route(engine, paths, sender, leadFold, from, target, content, signal);
        // Awaited once the team's lock settles; no unhandled-rejection warning meanwhile. Wrapped,
        // so the lock's promise settles with the route, not with the admission.
        if (done instanceof Promise) {
          done.catch(() => undefined);
          return { admitted: done };
        }
        return done;
      },
      signal === undefined ? {} : { signal },
    )
    .then((done) => outcome(engine, sender, 'unlisted' in done ? done : done.admitted));
};

/**
 * Steps 2-3 at once for a steady send (the team's lock free, the Lead's and the sender's folds
 * current), else undefined (the caller takes the lock). Synchronous: nothing can run between its
 * start and its end, so the lock would order nothing.
 */
const steadyRoute = (
  engine: TeamEngine,
  paths: SteerPaths,
  sender: Sender,
  lead: SessionId,
  target: string,
  content: readonly ContentBlock[],
  signal: AbortSignal | undefined,
): Route | undefined => {
  const leadFold = engine.freeAndCurrent(lead);
  if (leadFold === undefined) return undefined;
  const from = sender.sessionId === lead ? leadFold : engine.currentNow(sender.sessionId);
  return from === undefined ? undefined : route(engine, paths, sender, leadFold, from, target, content, signal);
};

/**
 * 2-4. Route from the team (the Lead's stream) and the sender's own stream, each read once; the
 * steer path names the one inbox the route may reach (UnauthorisedEdge for any other); the
 * admission is queued on the target's lock before the caller lets the team's lock go.
 */
const route = (
  engine: TeamEngine,
  paths: SteerPaths,
  sender: Sender,
  lead: FoldedStream,
  from: FoldedStream,
  target: string,
  content: readonly ContentBlock[],
  signal: AbortSignal | undefined,
): Route => {
  const routed = routeTeamMessage(lead.roster, closureOf(from.session.lifecycle), sender.sessionId, target);
  if (routed._tag === 'Left') throw new TeamLogError(routed.left);
  if (routed.right.target.kind === 'unlisted') return { unlisted: routed.right.target.address };
  const listed = routed.right as ListedRoute;
  const inbox = listed.target.kind === 'lead' ? paths.lead(listed) : paths.members(listed.teamId)(listed);
  const message = relayedMessage(engine.ids.messageId(), listed.sender, content);
  return admit(engine, listed.teamId, inbox, message, signal);
};

/** The send's result: the admission, or the refusal that explains an address not on the roster. */
const outcome = (engine: TeamEngine, sender: Sender, route: Route): Promise<MessageId> =>
  route instanceof Promise
    ? route
    : engine.refuseUnlisted(sender.teamId, route.unlisted).then((refusal) => {
        throw new TeamLogError(refusal);
      });

/** An address that is not on the roster (explained after the lock). */
interface Unlisted {
  readonly unlisted: string;
}
/** An admission queued on the target's lock (a steady send's promise is the caller's own), or an unlisted address. */
type Route = Promise<MessageId> | Unlisted;
/** A route as the team's lock hands it over: the admission wrapped, so the lock's promise does not wait for it. */
type Routed = { readonly admitted: Promise<MessageId> } | Unlisted;

const stillOpen: SenderClosure = {};
/** Only a closed sender is refused; the sender's lifecycle fold says whether and why it closed. */
const closureOf = (lifecycle: SessionLifecycle): SenderClosure =>
  lifecycle.status === 'closed' ? { closed: lifecycle.closeReason ?? 'lost' } : stillOpen;

/**
 * The admission of one message as the target's own stream decides it; tells the host once durable.
 * One object with methods, not a transaction of closures: a send makes one, not four.
 */
class Admission implements Transaction<AdmissionEvent, MessageId> {
  /** The target's status when decided: only a target that is not closed is decided any events. */
  private status: SessionStatus = 'closed';
  readonly writer: SessionId;

  constructor(
    private readonly engine: TeamEngine,
    private readonly team: TeamId,
    private readonly target: SessionId,
    private readonly message: RelayedMessage,
    readonly signal: AbortSignal | undefined,
  ) {
    this.writer = message.source.senderSessionId;
  }

  decide(fold: FoldedStream): Either<SendRejection, AdmissionEvent[]> {
    this.status = fold.session.lifecycle.status;
    return decideTargetInbox(
      { type: 'admit', teamId: this.team, target: this.target, message: this.message },
      fold.session,
    );
  }

  teamId(): TeamId {
    return this.team;
  }

  after(events: readonly AdmissionEvent[]): MessageId {
    const { message } = this;
    // Events are only decided for a target that is not closed; none means it was accepted before.
    if (events.length > 0 && this.status !== 'closed')
      this.engine.tell({
        teamId: this.team,
        target: this.target,
        sender: this.writer,
        messageId: message.id,
        delivery: admissionFor(this.status).kind,
      });
    return message.id;
  }
}

/** Write the message into the target's inbox, as the target's own stream decides; tell the host once durable. */
const admit = (
  engine: TeamEngine,
  teamId: TeamId,
  target: SessionId,
  message: RelayedMessage,
  signal: AbortSignal | undefined,
): Promise<MessageId> => engine.transact(target, new Admission(engine, teamId, target, message, signal));
