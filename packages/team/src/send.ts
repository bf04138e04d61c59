import { type MessageId, type RelayedMessage, type SessionId, type TeamId, leadOf } from '@teamlog/events';
import {
  type SenderClosure,
  type SessionLifecycle,
  type SessionStatus,
  admissionFor,
  decideTargetInbox,
  relayedMessage,
  routeTeamMessage,
} from '@teamlog/domain';
import { parseSendRequest } from './send-request';
import type { ListedRoute, SteerPaths } from './steer-paths';
import type { TeamEngine } from './team-engine';
import { TeamLogError, sendAborted } from './team-log-errors';

/*
 * A send, top to bottom (docs/architecture.md#the-send-path):
 *   1. parse the request;
 *   2. route it under the team's lock (the Lead stream's), reading the team and the sender once;
 *   3. ask the route's steer path (the Lead's own, or the host's member adapter) whose inbox it reaches;
 *   4. transact on that inbox: decide from the target's own stream, append, tell the listener.
 * Step 4 is queued on the target's lock before the team's lock is released: every send passes the
 * team's lock in call order, so messages to one target are admitted in the order they were sent.
 */

/** The session a handle sends as, sealed in the handle. */
export interface Sender {
  readonly teamId: TeamId;
  readonly sessionId: SessionId;
}

export const send = (engine: TeamEngine, paths: SteerPaths, sender: Sender, request: unknown): Promise<MessageId> =>
  engine.track('send', async () => {
    // 1. Parse: a refused request writes nothing.
    const { target, content, signal } = parseSendRequest(request);
    if (signal?.aborted === true) throw sendAborted(signal.reason);
    const routed = await engine.locked<Routed>(
      leadOf(sender.teamId),
      async (lead) => {
        // 2. Route from the team (the Lead's stream) and the sender's own stream, each read once.
        const from = sender.sessionId === lead.sessionId ? lead : await engine.current(sender.sessionId);
        const route = routeTeamMessage(lead.team.team, closureOf(from.session.lifecycle), sender.sessionId, target);
        if (route._tag === 'Left') throw new TeamLogError(route.left);
        if (route.right.target.kind === 'unlisted') return { unlisted: route.right.target.address };
        const listed = route.right as ListedRoute;
        // 3. The steer path names the one inbox this route may reach (UnauthorisedEdge for any other).
        const inbox = listed.target.kind === 'lead' ? paths.lead(listed) : paths.members(listed.teamId)(listed);
        // 4. Queued on the target's lock now, awaited once the team's lock is released.
        const message = relayedMessage(engine.ids.messageId(), listed.sender, content);
        const admitted = admit(engine, listed.teamId, inbox, message, signal);
        admitted.catch(() => undefined); // awaited right below; no unhandled-rejection warning meanwhile
        return { admitted };
      },
      { signal },
    );
    if ('unlisted' in routed) throw new TeamLogError(await engine.refuseUnlisted(sender.teamId, routed.unlisted));
    return routed.admitted;
  });

/** An admission queued on the target's lock, or an address that is not on the roster (explained after the lock). */
type Routed = { readonly admitted: Promise<MessageId> } | { readonly unlisted: string };

const stillOpen: SenderClosure = {};
/** Only a closed sender is refused; the sender's lifecycle fold says whether and why it closed. */
const closureOf = (lifecycle: SessionLifecycle): SenderClosure =>
  lifecycle.status === 'closed' ? { closed: lifecycle.closeReason ?? 'lost' } : stillOpen;

/** Write the message into the target's inbox, as the target's own stream decides; tell the host once durable. */
const admit = (
  engine: TeamEngine,
  teamId: TeamId,
  target: SessionId,
  message: RelayedMessage,
  signal: AbortSignal | undefined,
): Promise<MessageId> => {
  const sender = message.source.senderSessionId;
  let status: SessionStatus = 'closed';
  return engine.transact(target, {
    decide: (fold) => {
      status = fold.session.lifecycle.status;
      return decideTargetInbox({ type: 'admit', teamId, target, message }, fold.session);
    },
    writer: sender,
    teamId: () => teamId,
    ...(signal === undefined ? {} : { signal }),
    after: (events) => {
      // Events are only decided for a target that is not closed; none means it was accepted before.
      if (events.length > 0 && status !== 'closed')
        engine.tell({ teamId, target, sender, messageId: message.id, delivery: admissionFor(status).kind });
      return message.id;
    },
  });
};
