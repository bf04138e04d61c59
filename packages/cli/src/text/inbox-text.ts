import { peerSourceKinds } from '@teamlog/events';
import type { InboxEntryJson } from '../replay-document';
import { plural } from './plural';
import { renderTable } from './text-table';
import type { TextStyle } from './text-style';

const isPeer = (entry: InboxEntryJson): boolean => (peerSourceKinds as readonly string[]).includes(entry.sourceKind);

interface InboxCount {
  readonly sessionId: string;
  readonly messages: number;
  readonly peer: number;
  readonly pending: number;
}

export const inboxCounts = (inbox: readonly InboxEntryJson[]): InboxCount[] => {
  const counts = new Map<string, { messages: number; peer: number; pending: number }>();
  for (const entry of inbox) {
    const count = counts.get(entry.sessionId) ?? { messages: 0, peer: 0, pending: 0 };
    count.messages += 1;
    if (isPeer(entry)) count.peer += 1;
    if (entry.status === 'pending') count.pending += 1;
    counts.set(entry.sessionId, count);
  }
  return [...counts.entries()].map(([sessionId, count]) => ({ sessionId, ...count }));
};

/** Sessions with the most Team and peer messages first, then the busiest; the rest summarised. */
export const renderInboxCounts = (inbox: readonly InboxEntryJson[], style: TextStyle, limit = 15): string[] => {
  const counts = inboxCounts(inbox).sort(
    (a, b) => b.peer - a.peer || b.messages - a.messages || (a.sessionId < b.sessionId ? -1 : 1),
  );
  const peer = counts.reduce((sum, count) => sum + count.peer, 0);
  const pending = counts.reduce((sum, count) => sum + count.pending, 0);
  const heading = style.heading(
    `Inboxes: ${plural(inbox.length, 'message')} in ${plural(counts.length, 'session')} (${peer} from teammates or peers, ${pending} pending)`,
  );
  if (counts.length === 0) return [heading];
  const shown = counts.slice(0, limit);
  const rows = shown.map((count) => [
    count.sessionId,
    String(count.messages),
    String(count.peer),
    count.pending > 0 ? { text: String(count.pending), style: style.alert } : '0',
  ]);
  const rest = counts.length - shown.length;
  return [
    heading,
    ...renderTable(['SESSION', 'MESSAGES', 'PEER', 'PENDING'], rows),
    ...(rest > 0 ? [style.dim(`  … ${plural(rest, 'more session')} (teamlog inbox <session>, or --json)`)] : []),
  ];
};

/** One session's inbox, in acceptance order. */
export const renderInbox = (sessionId: string, inbox: readonly InboxEntryJson[], style: TextStyle): string[] => {
  const heading = style.heading(`Inbox of ${sessionId}: ${plural(inbox.length, 'message')}`);
  if (inbox.length === 0) return [heading];
  const rows = inbox.map((entry) => [
    String(entry.seq),
    entry.messageId,
    entry.sourceKind,
    entry.senderName ?? entry.senderSessionId ?? '-',
    entry.list ?? '-',
    entry.status === 'pending' ? { text: 'pending', style: style.alert } : (entry.status ?? '-'),
  ]);
  return [
    heading,
    ...renderTable(['SEQ', 'MESSAGE', 'SOURCE', 'SENDER', 'LIST', 'STATUS'], rows, '  ', {
      rest: `teamlog inbox ${sessionId} --json lists them all`,
    }),
  ];
};
