import * as t from 'io-ts';
import {
  AgentMessageSource,
  type ContentBlock,
  MessageId,
  type MessageSource,
  SessionId,
  TeamMessageSource,
  TeamRelaySource,
} from '@teamlog/events';
import type { InboxEntrySnapshot } from '@teamlog/team';
import { strictObjectType } from './strict-object-type';

const InboxStatus = t.keyof({ pending: null, claimed: null, canceled: null }, 'InboxStatus');

/**
 * One accepted message as its recipient reads it. `from` is the name the message's source records
 * (the true sender of a Team message); the status says whether a turn of the host has claimed it.
 */
export const InboxMessageView = strictObjectType(
  { id: MessageId, from: t.string, status: InboxStatus, text: t.string },
  { fromSessionId: SessionId },
  'InboxMessageView',
);
export type InboxMessageView = t.TypeOf<typeof InboxMessageView>;

// The union's open member (any other kind) keeps every field, so the peer kinds are told apart by their codecs.
const senderOf = (source: MessageSource): { readonly from: string; readonly fromSessionId?: SessionId } => {
  if (TeamRelaySource.is(source)) return { from: source.senderName, fromSessionId: source.senderSessionId };
  if (TeamMessageSource.is(source)) return { from: source.senderName, fromSessionId: source.senderId };
  if (AgentMessageSource.is(source)) return { from: source.senderSessionId, fromSessionId: source.senderSessionId };
  // user, model, tool, plugin, ...: the kind is all a recipient needs to know.
  return { from: source.kind };
};

/** Text blocks as they are; other blocks as a placeholder naming their type. */
const textOf = (content: readonly ContentBlock[]): string =>
  content
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : `[${block.type}]`))
    .join('\n');

export const inboxMessageView = (entry: InboxEntrySnapshot): InboxMessageView => ({
  id: entry.id,
  ...senderOf(entry.source),
  status: entry.status,
  text: textOf(entry.content),
});
