import {
  AgentMessageSource,
  type InboxList,
  type MessageId,
  type MessageSource,
  OtherMessageSource,
  type SessionId,
  type TeamId,
  TeamMessageSource,
  TeamRelaySource,
  isPeerSource,
} from '@teamlog/events';
import type { InboxEntry, InboxEntryStatus, InboxOrigin } from '@teamlog/domain';
import { compareText } from './compare-text';
import type { InboxEntryDetail } from './inbox-projection';
import type { ProjectionState } from './projection-state';
import { inheritedCut } from './session-facts';

/** One message accepted into a session's inbox. */
export interface InboxView {
  readonly sessionId: SessionId;
  readonly messageId: MessageId;
  readonly sourceKind: string;
  readonly senderSessionId?: SessionId;
  readonly senderName?: string;
  /** The seq of the event that accepted it. */
  readonly seq: number;
  /** The pending list it waited on; absent for a peer message written straight into the conversation. */
  readonly list?: InboxList;
  readonly status: InboxEntryStatus;
  /** The seq at which it was claimed or canceled. */
  readonly settledSeq?: number;
  readonly origin: InboxOrigin;
  /** The inbox item's own id (differs from `messageId` for mailbox-era `team-message` items). */
  readonly itemId: MessageId;
  readonly teamId?: TeamId;
  readonly time: number;
}

/** The sender a source names, for the kinds that name one. */
export const senderOf = (
  source: MessageSource,
): { readonly sessionId?: SessionId; readonly name?: string; readonly teamId?: TeamId } => {
  if (TeamMessageSource.is(source))
    return { sessionId: source.senderId, name: source.senderName, teamId: source.teamId };
  if (TeamRelaySource.is(source)) return { sessionId: source.senderSessionId, name: source.senderName };
  if (AgentMessageSource.is(source)) return { sessionId: source.senderSessionId };
  // Relays of other producers (coordinator, subagent-report, ...) name the sending session too.
  const other = OtherMessageSource.is(source) ? source.senderSessionId : undefined;
  return typeof other === 'string' && other.length > 0 ? { sessionId: other as SessionId } : {};
};

/** An entry with its details, for the views and the audit. */
export interface AcceptedMessage {
  readonly sessionId: SessionId;
  readonly index: number;
  readonly entry: InboxEntry;
  readonly detail: InboxEntryDetail;
}

/** Every entry of every session's own history (a fork's inherited entries are its parent's). */
export const acceptedMessages = (state: ProjectionState, sessionId?: SessionId): AcceptedMessage[] => {
  const ids = sessionId === undefined ? [...state.inboxes.keys()].sort(compareText) : [sessionId];
  return ids.flatMap((id) => {
    const inbox = state.inboxes.get(id);
    const facts = state.sessions.get(id);
    if (inbox === undefined) return [];
    const cut = facts === undefined ? 0 : inheritedCut(facts);
    return inbox.state.entries.flatMap((entry, index) => {
      const detail = inbox.details[index];
      return detail === undefined || entry.acceptedSeq < cut ? [] : [{ sessionId: id, index, entry, detail }];
    });
  });
};

export const inboxView = ({ sessionId, entry, detail }: AcceptedMessage): InboxView => {
  const sender = senderOf(entry.source);
  return {
    sessionId,
    messageId: detail.messageId,
    sourceKind: entry.source.kind,
    ...(sender.sessionId === undefined ? {} : { senderSessionId: sender.sessionId }),
    ...(sender.name === undefined ? {} : { senderName: sender.name }),
    seq: entry.acceptedSeq,
    ...(entry.list === undefined ? {} : { list: entry.list }),
    status: entry.status,
    ...(entry.settledSeq === undefined ? {} : { settledSeq: entry.settledSeq }),
    origin: entry.origin,
    itemId: entry.id,
    ...(sender.teamId === undefined ? {} : { teamId: sender.teamId }),
    time: detail.time,
  };
};

export interface InboxQuery {
  readonly sessionId?: SessionId;
  /** Only Team and peer messages (`team-message`, `agent-message`, `team-relay`). */
  readonly peerOnly?: boolean;
}

export const readInbox = (state: ProjectionState, query: InboxQuery = {}): InboxView[] =>
  acceptedMessages(state, query.sessionId)
    .filter((accepted) => query.peerOnly !== true || isPeerSource(accepted.entry.source))
    .map(inboxView);
