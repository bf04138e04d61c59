import * as t from 'io-ts';
import {
  type CatalogEventOf,
  type MessageId,
  type MessageSource,
  type UserMessage,
  isPeerSource,
  scopeId,
} from '@teamlog/events';
import {
  type InboxAccumulator,
  type InboxEntry,
  type InboxMessageFields,
  accumulateInbox,
  initialInboxAccumulator,
} from '@teamlog/domain';
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

/** The event's `index`th message, as `messagesOf` lists them, without making the list. */
const messageAt = (event: CatalogEventOf<InboxEventType>, index: number): Message | undefined => {
  switch (event.type) {
    case 'agent/inbox/spliced':
      return event.data.inserted[index];
    case 'teamlog/inbox/accepted':
      return index === 0 ? event.data.message : undefined;
    case 'user/message':
      return index === 0 ? event.data : undefined;
    default:
      return undefined;
  }
};

const logicalId = (id: MessageId, source: MessageSource): MessageId =>
  source.kind === 'team-message' && typeof source.messageId === 'string' ? (source.messageId as MessageId) : id;

const noContent: readonly never[] = Object.freeze([]);

const unscopedFields: InboxMessageFields = {
  id: (id) => id,
  source: (source) => source,
  content: () => noContent,
};

const scopedFields = new Map<string, InboxMessageFields>();

/**
 * A message's fields as the views keep them: placeholder ids resolved in the session's scope, no
 * body (the views never show content, only its header). The fold reads them from the event's own
 * messages, so no scoped copy of the event is made.
 */
const viewFields = (scope: string | undefined): InboxMessageFields => {
  if (scope === undefined) return unscopedFields;
  let fields = scopedFields.get(scope);
  if (fields === undefined) {
    fields = {
      id: (id) => scopeId(id, scope),
      source: (source) => scopeSource(source, scope),
      content: () => noContent,
    };
    scopedFields.set(scope, fields);
  }
  return fields;
};

const noIndexes: readonly number[] = [];

/**
 * The pending entries the event may settle, read before it is folded: a splice settles the ones it
 * removes, a claim or cancel those of its list, an acceptance or a message none. Only these can
 * leave the pending lists, so the fold copies no more of them than the event touches.
 */
const settleCandidates = (state: InboxAccumulator, event: CatalogEventOf<InboxEventType>): readonly number[] => {
  switch (event.type) {
    case 'agent/inbox/spliced': {
      const { target, start, removedCount } = event.data;
      return removedCount === undefined || removedCount === 0
        ? noIndexes
        : state.pending[target].slice(start, start + removedCount);
    }
    case 'teamlog/inbox/claimed':
    case 'teamlog/inbox/canceled':
      return [...state.pending[event.data.list]];
    case 'teamlog/inbox/accepted':
    case 'user/message':
      return noIndexes;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/** A new entry's details, as literals in the key order they always had (no spread: one object each). */
const detailOf = (entry: InboxEntry, event: InboxSessionEvent, header: TeamMessageHeader | null): InboxEntryDetail => {
  const messageId = logicalId(entry.id, entry.source);
  const { time, normalised } = event;
  return entry.status === 'pending'
    ? { messageId, time, normalised, header }
    : { messageId, time, normalised, header, settledTime: time };
};

/**
 * A detail settled at `settledTime`, as a literal in the key order every detail has (detailOf, and
 * a view store's rows read back): a spread that adds a key took V8's slow path, once per settled entry.
 */
const settledDetail = (detail: InboxEntryDetail, settledTime: number): InboxEntryDetail => {
  const { messageId, time, normalised, header } = detail;
  return { messageId, time, normalised, header, settledTime };
};

/** What an untracked fold returns: the change it made is not recorded (ProjectionState.recordsInboxChanges). */
const unrecorded: InboxChange = { entries: [], held: [] };

/**
 * Fold one decoded inbox event into the session's inbox with `accumulateInbox`, and record when each
 * entry was accepted and settled. Linear: the given inbox is updated in place. Untracked (views no
 * store writes), the message ids are held all the same and the change comes back empty.
 */
export const evolveSessionInbox = (
  inbox: SessionInbox,
  event: InboxSessionEvent,
  scope: string | undefined,
  tracked = true,
): InboxChange => {
  const fields = viewFields(scope);
  if (event.type === 'user/message' && !isPeerSource(event.data.source)) return holdOnly(inbox, event, fields, tracked);
  const before = inbox.state.entries.length;
  const candidates = settleCandidates(inbox.state, event);
  accumulateInbox(inbox.state, event, fields);
  const changed: number[] | undefined = tracked ? [] : undefined;
  for (const index of candidates) {
    const entry = inbox.state.entries[index] as InboxEntry;
    const detail = inbox.details[index];
    if (entry.status !== 'pending' && detail !== undefined && detail.settledTime === undefined) {
      inbox.details[index] = settledDetail(detail, event.time);
      changed?.push(index);
    }
  }
  // accumulateInbox records new entries in the order of the event's messages.
  for (let index = before; index < inbox.state.entries.length; index += 1) {
    const message = messageAt(event, index - before);
    const header = message === undefined ? null : (parseTeamMessageHeader(message.content) ?? null);
    inbox.details.push(detailOf(inbox.state.entries[index] as InboxEntry, event, header));
    changed?.push(index);
  }
  const held = holdMessages(inbox, event, fields, tracked);
  return changed === undefined || held === undefined ? unrecorded : { entries: changed, held };
};

/**
 * A user message that is not a peer's is never an inbox entry (accumulateInbox): its ids are held,
 * and nothing else of it is made (most user messages of a log are the user's own prompts).
 */
const holdOnly = (
  inbox: SessionInbox,
  event: CatalogEventOf<'user/message'>,
  fields: InboxMessageFields,
  tracked: boolean,
): InboxChange => {
  const held: Array<readonly [MessageId, number]> | undefined = tracked ? [] : undefined;
  holdMessage(inbox, event.data, fields, event.seq, held);
  return held === undefined ? unrecorded : { entries: [], held };
};

/** Hold the event's messages' ids (`messageAt`'s order); tracked, the ids newly held with their seq, else nothing is made. */
const holdMessages = (
  inbox: SessionInbox,
  event: CatalogEventOf<InboxEventType>,
  fields: InboxMessageFields,
  tracked: boolean,
): Array<readonly [MessageId, number]> | undefined => {
  const held: Array<readonly [MessageId, number]> | undefined = tracked ? [] : undefined;
  for (let index = 0; ; index += 1) {
    const message = messageAt(event, index);
    if (message === undefined) return held;
    holdMessage(inbox, message, fields, event.seq, held);
  }
};

/**
 * Hold a message's id and, for a Team message, its source's id (both as the views keep them); each
 * newly held goes into `held` when given.
 */
const holdMessage = (
  inbox: SessionInbox,
  message: Message,
  fields: InboxMessageFields,
  seq: number,
  held: Array<readonly [MessageId, number]> | undefined,
): void => {
  const id = fields.id(message.id);
  if (inbox.held.hold(id, seq)) held?.push([id, seq]);
  if (message.source.kind !== 'team-message') return;
  const logical = logicalId(id, fields.source(message.source));
  if (inbox.held.hold(logical, seq)) held?.push([logical, seq]);
};
