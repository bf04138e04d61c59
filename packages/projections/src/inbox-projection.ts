import * as t from 'io-ts';
import { type CatalogEventOf, type MessageId, type MessageSource, type UserMessage, scopeId } from '@teamlog/events';
import { type InboxAccumulator, type InboxEntry, accumulateInbox, initialInboxAccumulator } from '@teamlog/domain';
import { type HeldMessages, InMemoryHeldMessages } from './held-messages';
import type { SessionEvent } from './session-event';
import { scopeSource } from './session-scope';
import { type TeamMessageHeader, parseTeamMessageHeader } from './team-message-header';

/** What the inbox view keeps beside the domain's entry (message bodies are not kept). */
export const InboxEntryDetail = t.intersection(
  [
    t.type({
      /** The Team message id: `source.messageId` for `team-message`, else the inbox item's id. */
      messageId: t.string,
      time: t.number,
      normalised: t.boolean,
      /** Whether the entry's message carried the source's sender header. */
      header: t.union([t.null, t.intersection([t.type({ senderName: t.string }), t.partial({ messageId: t.string })])]),
    }),
    t.partial({ settledTime: t.number }),
  ],
  'InboxEntryDetail',
);
export type InboxEntryDetail = t.TypeOf<typeof InboxEntryDetail> & {
  readonly messageId: MessageId;
  readonly header: TeamMessageHeader | null;
};

/** One session's inbox: the domain fold, per-entry details and every message id its log holds. */
export interface SessionInbox {
  readonly state: InboxAccumulator;
  readonly details: InboxEntryDetail[];
  /** Message ids the log holds (user messages, inbox items, `team-message` source ids), first seq. */
  readonly held: HeldMessages;
}

export const initialSessionInbox = (held: HeldMessages = new InMemoryHeldMessages()): SessionInbox => ({
  state: initialInboxAccumulator(),
  details: [],
  held,
});

export type InboxEventType =
  | 'agent/inbox/spliced'
  | 'user/message'
  | 'teamlog/inbox/accepted'
  | 'teamlog/inbox/claimed'
  | 'teamlog/inbox/canceled';
export const inboxEventTypes: ReadonlySet<string> = new Set<InboxEventType>([
  'agent/inbox/spliced',
  'user/message',
  'teamlog/inbox/accepted',
  'teamlog/inbox/claimed',
  'teamlog/inbox/canceled',
]);

/** An inbox event whose payload its codec accepted, as the views fold it. */
export type InboxSessionEvent = CatalogEventOf<InboxEventType> & Omit<SessionEvent, 'catalog' | 'type' | 'data'>;

export const isInboxEvent = (event: SessionEvent): event is InboxSessionEvent =>
  event.catalog && inboxEventTypes.has(event.type);

/** What one event changed, so a view store writes only that. */
export interface InboxChange {
  readonly entries: readonly number[];
  readonly held: ReadonlyArray<readonly [MessageId, number]>;
}

type Message = Pick<UserMessage, 'id' | 'content' | 'source'>;

const messagesOf = (event: CatalogEventOf<InboxEventType>): readonly Message[] => {
  switch (event.type) {
    case 'agent/inbox/spliced':
      return event.data.inserted;
    case 'teamlog/inbox/accepted':
      return [event.data.message];
    case 'user/message':
      return [event.data];
    default:
      return [];
  }
};

const logicalId = (id: MessageId, source: MessageSource): MessageId =>
  source.kind === 'team-message' && typeof source.messageId === 'string' ? (source.messageId as MessageId) : id;

/** Resolve placeholder ids and drop bodies: the views never show content, only its header. */
const scopedMessage = <M extends Message>(message: M, scope: string | undefined): M => ({
  ...message,
  id: scopeId(message.id, scope),
  content: [],
  source: scopeSource(message.source, scope),
});

const scopedEvent = (
  event: CatalogEventOf<InboxEventType>,
  scope: string | undefined,
): CatalogEventOf<InboxEventType> => {
  switch (event.type) {
    case 'agent/inbox/spliced':
      return {
        ...event,
        data: { ...event.data, inserted: event.data.inserted.map((message) => scopedMessage(message, scope)) },
      };
    case 'teamlog/inbox/accepted':
      return { ...event, data: { ...event.data, message: scopedMessage(event.data.message, scope) } };
    case 'user/message':
      return { ...event, data: scopedMessage(event.data, scope) };
    case 'teamlog/inbox/claimed':
      return scope === undefined
        ? event
        : { ...event, data: { ...event.data, messageIds: event.data.messageIds.map((id) => scopeId(id, scope)) } };
    case 'teamlog/inbox/canceled':
      return scope === undefined
        ? event
        : { ...event, data: { ...event.data, messageIds: event.data.messageIds.map((id) => scopeId(id, scope)) } };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const pendingIndexes = (state: InboxAccumulator): number[] => [
  ...state.pending['next-turn'],
  ...state.pending['next-step'],
];

/**
 * Fold one decoded inbox event into the session's inbox with `accumulateInbox`, and record when each
 * entry was accepted and settled. Linear: the given inbox is updated in place.
 */
export const evolveSessionInbox = (
  inbox: SessionInbox,
  event: InboxSessionEvent,
  scope: string | undefined,
): InboxChange => {
  const headers = messagesOf(event).map((message) => parseTeamMessageHeader(message.content) ?? null);
  const scoped = scopedEvent(event, scope);
  const before = inbox.state.entries.length;
  const pendingBefore = pendingIndexes(inbox.state);
  accumulateInbox(inbox.state, scoped);
  const changed: number[] = [];
  for (const index of pendingBefore) {
    const entry = inbox.state.entries[index] as InboxEntry;
    const detail = inbox.details[index];
    if (entry.status !== 'pending' && detail !== undefined && detail.settledTime === undefined) {
      inbox.details[index] = { ...detail, settledTime: event.time };
      changed.push(index);
    }
  }
  // accumulateInbox records new entries in the order of the event's messages.
  for (let index = before; index < inbox.state.entries.length; index += 1) {
    const entry = inbox.state.entries[index] as InboxEntry;
    const header = headers[index - before] ?? null;
    inbox.details.push({
      messageId: logicalId(entry.id, entry.source),
      time: event.time,
      normalised: event.normalised,
      header,
      ...(entry.status === 'pending' ? {} : { settledTime: event.time }),
    });
    changed.push(index);
  }
  return { entries: changed, held: holdMessages(inbox, messagesOf(scoped), event.seq) };
};

const holdMessages = (
  inbox: SessionInbox,
  messages: readonly Message[],
  seq: number,
): Array<readonly [MessageId, number]> => {
  const held: Array<readonly [MessageId, number]> = [];
  const hold = (id: MessageId) => {
    if (inbox.held.hold(id, seq)) held.push([id, seq]);
  };
  for (const message of messages) {
    hold(message.id);
    if (message.source.kind === 'team-message') hold(logicalId(message.id, message.source));
  }
  return held;
};
