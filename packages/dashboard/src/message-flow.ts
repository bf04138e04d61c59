import { type MessageId, type SessionId, type TeamId, leadOf } from '@teamlog/events';
import { type InboxView, type TeamView, type TeamlogViews, leadName } from '@teamlog/projections';

export interface FlowParticipant {
  readonly id: SessionId;
  readonly name: string;
  /** `outside`: a sender that is neither the Lead nor on the roster (the audit reports it). */
  readonly role: 'lead' | 'member' | 'outside';
}

export type FlowStatus = 'pending' | 'claimed' | 'canceled' | 'delivered' | 'undelivered';

/** One message between two sessions of a team, as the views record it. */
export interface FlowMessage {
  readonly messageId: MessageId;
  readonly from: SessionId;
  readonly to: SessionId;
  readonly senderName?: string;
  /** `inbox`: accepted by the target's inbox; `legacy-mailbox`: queued in the Lead log (read-only). */
  readonly via: 'inbox' | 'legacy-mailbox';
  /** The source kind (`team-relay`, `team-message`, `agent-message`), or the record type for the mailbox. */
  readonly sourceKind: string;
  readonly status: FlowStatus;
  /** Epoch ms of the event that recorded it (0 when the log carried no time). */
  readonly time: number;
  /** The session whose stream records it (the target's inbox, or the Lead for the mailbox), at `seq`. */
  readonly recordedIn: SessionId;
  readonly seq: number;
}

/** Who sent what to whom in a team, in order: the data the sequence diagram is drawn from. */
export interface MessageFlow {
  readonly teamId: TeamId;
  readonly participants: readonly FlowParticipant[];
  readonly messages: readonly FlowMessage[];
}

const participantsOf = (team: TeamView): FlowParticipant[] => [
  { id: team.lead.id, name: leadName, role: 'lead' },
  ...team.members.map((member) => ({ id: member.id, name: member.name, role: 'member' as const })),
];

const legacyMessagesOf = (team: TeamView, queuedTimes: ReadonlyMap<number, number>): FlowMessage[] =>
  team.legacyMessages.map((message) => ({
    messageId: message.id,
    from: message.senderId,
    to: message.targetId,
    senderName: message.senderName,
    via: 'legacy-mailbox',
    sourceKind: 'team/message/queued',
    status: message.status,
    time: queuedTimes.get(message.queuedSeq) ?? 0,
    recordedIn: team.lead.id,
    seq: message.queuedSeq,
  }));

const inboxMessageOf = (entry: InboxView & { readonly senderSessionId: SessionId }): FlowMessage => ({
  messageId: entry.messageId,
  from: entry.senderSessionId,
  to: entry.sessionId,
  ...(entry.senderName === undefined ? {} : { senderName: entry.senderName }),
  via: 'inbox',
  sourceKind: entry.sourceKind,
  status: entry.status,
  time: entry.time,
  recordedIn: entry.sessionId,
  seq: entry.seq,
});

const compareMessages = (a: FlowMessage, b: FlowMessage): number =>
  a.time - b.time || (a.recordedIn < b.recordedIn ? -1 : a.recordedIn > b.recordedIn ? 1 : 0) || a.seq - b.seq;

/**
 * The flow of one team: its mailbox-era messages from the Lead log, and every peer message accepted
 * into a team session's inbox (or naming the team), ordered by the time they were recorded. A
 * mailbox message that also reached its target's inbox is drawn once, as the mailbox recorded it.
 * `peerInbox` holds peer messages only; `queuedTimes` maps a Lead-log seq to its time.
 */
export const messageFlowOf = (
  team: TeamView,
  peerInbox: readonly InboxView[],
  queuedTimes: ReadonlyMap<number, number>,
): MessageFlow => {
  const participants = participantsOf(team);
  const inTeam = new Set(participants.map((participant) => participant.id));
  const legacy = legacyMessagesOf(team, queuedTimes);
  const legacyKeys = new Set(legacy.map((message) => `${message.messageId}\u0000${message.to}`));
  const accepted = peerInbox
    .filter(
      (entry): entry is InboxView & { readonly senderSessionId: SessionId } => entry.senderSessionId !== undefined,
    )
    .filter((entry) => inTeam.has(entry.sessionId) || entry.teamId === team.teamId)
    .filter(
      (entry) => !(entry.sourceKind === 'team-message' && legacyKeys.has(`${entry.messageId}\u0000${entry.sessionId}`)),
    )
    .map(inboxMessageOf);
  const messages = [...legacy, ...accepted].sort(compareMessages);
  const outsiders = new Map<SessionId, FlowParticipant>();
  for (const message of messages) {
    for (const [id, name] of [
      [message.from, message.senderName],
      [message.to, undefined],
    ] as const) {
      if (!inTeam.has(id) && !outsiders.has(id)) outsiders.set(id, { id, name: name ?? id, role: 'outside' });
    }
  }
  return { teamId: team.teamId, participants: [...participants, ...outsiders.values()], messages };
};

/** The flow of a team in the views, or undefined when the views hold no such team. */
export const readMessageFlow = (views: TeamlogViews, teamId: TeamId): MessageFlow | undefined => {
  const team = views.teams().find((candidate) => candidate.teamId === teamId);
  if (team === undefined) return undefined;
  const records = views.state.teams.get(leadOf(teamId))?.records ?? [];
  const queuedTimes = new Map(
    records
      .filter((record) => record.type === 'team/message/queued')
      .map((record) => [record.seq, record.normalised ? 0 : record.time]),
  );
  const peerInbox = views.inbox({ peerOnly: true }).filter((entry) => entry.senderSessionId !== undefined);
  return messageFlowOf(team, peerInbox, queuedTimes);
};
