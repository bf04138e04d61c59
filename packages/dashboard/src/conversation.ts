import type { JsonValue } from '@teamlog/events';

/** What one entry of a session's transcript is. */
export type ConversationKind =
  | 'user'
  | 'assistant'
  | 'reasoning'
  | 'tool-call'
  | 'tool-result'
  | 'team-message'
  | 'legacy-mailbox'
  | 'turn'
  | 'lifecycle';

/** One entry of a session's transcript, in seq order; `text` is the whole text (the page shortens it). */
export interface ConversationItem {
  readonly seq: number;
  readonly kind: ConversationKind;
  /** Who speaks: `user`, `assistant`, a tool's name, a Team sender's name, or `teamlog`. */
  readonly author: string;
  readonly text: string;
  readonly time?: number;
  readonly messageId?: string;
  /** Team messages: the sender's session; legacy mailbox: the target's name. */
  readonly senderSessionId?: string;
  readonly target?: string;
  /** Team messages: the pending list it waited on (its delivery); legacy mailbox: the v1 `delivery`. */
  readonly delivery?: string;
  /** Team messages: pending, claimed or canceled; legacy mailbox: delivered or undelivered. */
  readonly status?: string;
  /** Tool results: the tool reported an error. */
  readonly isError?: boolean;
}

/** An event of the session's stream as the transcript reads it. */
export interface TranscriptEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: JsonValue;
  readonly time?: number;
}

/** What the views know about the messages the stream holds, to show their status. */
export interface TranscriptContext {
  /** Inbox status by message id (and by item id), from the session's inbox view. */
  readonly inboxStatus: ReadonlyMap<string, { readonly status: string; readonly list?: string }>;
  /** Legacy mailbox status by message id, when the session is a Lead. */
  readonly legacyStatus: ReadonlyMap<string, { readonly status: string; readonly targetName: string }>;
}

type JsonObject = { readonly [key: string]: JsonValue };

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const field = (value: JsonValue | undefined, name: string): JsonValue | undefined =>
  isObject(value) ? value[name] : undefined;
const text = (value: JsonValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
const list = (value: JsonValue | undefined): readonly JsonValue[] => (Array.isArray(value) ? value : []);

/** Tool arguments as reading text: raw JSON text (as `tool/call` keeps it) as it is, a value as JSON. */
const argumentsText = (value: JsonValue | undefined): string =>
  typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2);

/** A content block as reading text: text as it is, other blocks as a short bracketed note. */
const blockText = (block: JsonValue): string => {
  const type = text(field(block, 'type'));
  switch (type) {
    case 'text':
    case 'reasoning':
      return text(field(block, 'text')) ?? '';
    case 'tool-call':
      return `[tool call ${text(field(block, 'name')) ?? '?'}] ${argumentsText(field(block, 'arguments'))}`;
    case 'tool-result':
      return contentText(field(block, 'content'));
    case 'image':
    case 'file':
      return `[${type} ${text(field(field(block, 'attachment'), 'name')) ?? text(field(field(block, 'attachment'), 'attachmentId')) ?? ''}]`.replace(
        ' ]',
        ']',
      );
    default:
      return `[${type ?? 'block'}]`;
  }
};

/** Content blocks as reading text, one block a line. */
export const contentText = (content: JsonValue | undefined): string =>
  typeof content === 'string'
    ? content
    : list(content)
        .map(blockText)
        .filter((part) => part !== '')
        .join('\n');

const peerKinds = new Set(['team-relay', 'team-message', 'agent-message']);

/** A user message: a Team message when its source is a peer, else the user's. */
const userMessage = (
  event: TranscriptEvent,
  message: JsonValue | undefined,
  context: TranscriptContext,
  delivery?: string,
): ConversationItem => {
  const source = field(message, 'source');
  const kind = text(field(source, 'kind')) ?? 'user';
  const messageId = text(field(message, 'id'));
  const base = {
    seq: event.seq,
    text: contentText(field(message, 'content')),
    ...(event.time === undefined ? {} : { time: event.time }),
    ...(messageId === undefined ? {} : { messageId }),
  };
  const known = messageId === undefined ? undefined : context.inboxStatus.get(messageId);
  const list = known?.list ?? delivery;
  // A message that waited in the inbox (a prompt or a Team message) shows its list and status.
  const inbox = {
    ...(list === undefined ? {} : { delivery: list }),
    ...(known === undefined || list === undefined ? {} : { status: known.status }),
  };
  if (!peerKinds.has(kind)) return { ...base, ...inbox, kind: 'user', author: kind };
  const sender =
    text(field(source, 'senderName')) ??
    text(field(source, 'senderSessionId')) ??
    text(field(source, 'senderId')) ??
    kind;
  const senderSessionId = text(field(source, 'senderSessionId')) ?? text(field(source, 'senderId'));
  return {
    ...base,
    ...inbox,
    kind: 'team-message',
    author: sender,
    ...(senderSessionId === undefined ? {} : { senderSessionId }),
    ...(known === undefined || list !== undefined ? {} : { status: known.status }),
  };
};

const assistantItems = (event: TranscriptEvent): ConversationItem[] => {
  const content = list(field(field(event.data, 'message'), 'content'));
  const at = event.time === undefined ? {} : { time: event.time };
  const items: ConversationItem[] = [];
  const spoken = content
    .filter((block) => text(field(block, 'type')) === 'text')
    .map(blockText)
    .join('\n');
  const thought = content
    .filter((block) => text(field(block, 'type')) === 'reasoning')
    .map(blockText)
    .join('\n');
  if (thought !== '') items.push({ seq: event.seq, kind: 'reasoning', author: 'assistant', text: thought, ...at });
  if (spoken !== '') items.push({ seq: event.seq, kind: 'assistant', author: 'assistant', text: spoken, ...at });
  for (const block of content.filter((candidate) => text(field(candidate, 'type')) === 'tool-call')) {
    items.push({
      seq: event.seq,
      kind: 'tool-call',
      author: text(field(block, 'name')) ?? 'tool',
      text: argumentsText(field(block, 'arguments')),
      ...at,
    });
  }
  return items;
};

const toolResult = (event: TranscriptEvent): ConversationItem => {
  const message = field(event.data, 'message');
  const content = field(message, 'content');
  const nested = list(content).find((block) => text(field(block, 'type')) === 'tool-result');
  const isError = field(nested ?? message, 'isError') === true || field(event.data, 'error') !== undefined;
  const callId = text(field(field(message, 'source'), 'callId')) ?? text(field(message, 'toolCallId'));
  return {
    seq: event.seq,
    kind: 'tool-result',
    author: callId === undefined ? 'tool' : `result of ${callId}`,
    text: contentText(nested === undefined ? content : field(nested, 'content')),
    ...(isError ? { isError: true } : {}),
    ...(event.time === undefined ? {} : { time: event.time }),
  };
};

const legacyQueued = (event: TranscriptEvent, context: TranscriptContext): ConversationItem => {
  const message = field(event.data, 'message');
  const id = text(field(message, 'id'));
  const known = id === undefined ? undefined : context.legacyStatus.get(id);
  const delivery = text(field(message, 'delivery'));
  return {
    seq: event.seq,
    kind: 'legacy-mailbox',
    author: text(field(message, 'senderName')) ?? text(field(message, 'senderId')) ?? '?',
    target: known?.targetName ?? text(field(message, 'targetId')) ?? '?',
    text: contentText(field(message, 'content')),
    ...(id === undefined ? {} : { messageId: id }),
    ...(delivery === undefined ? {} : { delivery }),
    ...(known === undefined ? {} : { status: known.status }),
    ...(event.time === undefined ? {} : { time: event.time }),
  };
};

const note = (event: TranscriptEvent, kind: 'turn' | 'lifecycle', line: string): ConversationItem => ({
  seq: event.seq,
  kind,
  author: 'teamlog',
  text: line,
  ...(event.time === undefined ? {} : { time: event.time }),
});

const turnEndText = (data: JsonValue): string => {
  const reason = field(data, 'reason');
  return `turn ${JSON.stringify(field(data, 'turn') ?? '?')} ended: ${text(field(reason, 'kind')) ?? text(reason) ?? 'unknown'}`;
};

/**
 * One event as transcript entries: what was said (user, assistant, tools, Team messages, legacy
 * mailbox records) and the turns and lifecycle around it. Everything else (steps, requests,
 * policies, inbox claims, whose effect shows as a status) adds nothing to read.
 */
const itemsOf = (event: TranscriptEvent, context: TranscriptContext, shown: Set<string>): ConversationItem[] => {
  switch (event.type) {
    case 'user/message':
    case 'steering/message': {
      const id = text(field(event.data, 'id'));
      // A claimed inbox message enters the conversation again as user/message: it is shown once, where it arrived.
      if (id !== undefined && shown.has(id)) return [];
      return [userMessage(event, event.data, context)];
    }
    case 'teamlog/inbox/accepted':
    case 'agent/inbox/spliced': {
      const delivery = text(field(event.data, 'list')) ?? text(field(event.data, 'target'));
      const messages =
        event.type === 'teamlog/inbox/accepted' ? [field(event.data, 'message')] : list(field(event.data, 'inserted'));
      return messages.map((message) => {
        const id = text(field(message, 'id'));
        if (id !== undefined) shown.add(id);
        return userMessage(event, message, context, delivery);
      });
    }
    case 'assistant/message':
      return assistantItems(event);
    case 'tool/result':
      return [toolResult(event)];
    case 'team/message/queued':
      return [legacyQueued(event, context)];
    case 'turn/start':
      return [note(event, 'turn', `turn ${JSON.stringify(field(event.data, 'turn') ?? '?')} started`)];
    case 'turn/end':
      return [note(event, 'turn', turnEndText(event.data))];
    case 'teamlog/session/created':
      return [
        note(
          event,
          'lifecycle',
          `created as ${text(field(event.data, 'role')) ?? '?'} "${text(field(event.data, 'name')) ?? '?'}"`,
        ),
      ];
    case 'teamlog/session/evicted':
      return [note(event, 'lifecycle', 'evicted (inactive)')];
    case 'teamlog/session/resumed':
      return [note(event, 'lifecycle', 'cold resumed')];
    case 'teamlog/session/closed':
      return [note(event, 'lifecycle', `closed: ${text(field(event.data, 'reason')) ?? '?'}`)];
    default:
      return [];
  }
};

/** A session's transcript from its events in seq order. */
export const conversationOf = (events: readonly TranscriptEvent[], context: TranscriptContext): ConversationItem[] => {
  const shown = new Set<string>();
  return events.flatMap((event) => itemsOf(event, context, shown));
};

/** The text of the message `messageId` that an event (an acceptance, a splice, a user message, a mailbox record) holds. */
export const messageTextIn = (type: string, data: JsonValue, messageId: string): string | undefined => {
  const candidates =
    type === 'agent/inbox/spliced'
      ? list(field(data, 'inserted'))
      : type === 'teamlog/inbox/accepted' || type === 'team/message/queued'
        ? [field(data, 'message')]
        : [data];
  const message =
    candidates.find((candidate) => text(field(candidate, 'id')) === messageId) ??
    (candidates.length === 1 ? candidates[0] : undefined);
  return message === undefined ? undefined : contentText(field(message, 'content'));
};
