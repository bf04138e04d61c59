import {
  type ContentBlock,
  type InboxList,
  type MessageId,
  type MessageSource,
  type StreamEvent,
  isPeerSource,
} from '@teamlog/events';

export type InboxEntryStatus = 'pending' | 'claimed' | 'canceled';
export type InboxOrigin = 'spliced' | 'accepted' | 'direct';

/** One message accepted into a session's inbox, in acceptance order. */
export interface InboxEntry {
  readonly id: MessageId;
  /** The pending list it waited on; absent for a peer message written straight into the conversation. */
  readonly list?: InboxList;
  readonly origin: InboxOrigin;
  readonly source: MessageSource;
  readonly content: readonly ContentBlock[];
  readonly acceptedSeq: number;
  readonly status: InboxEntryStatus;
  readonly settledSeq?: number;
}

/**
 * A session's inbox: the two pending lists (`next-turn`, `next-step`) and every entry ever
 * accepted. Historical `agent/inbox/spliced` records and teamlog's own acceptance events fold
 * into the same lists, so a claim or splice after either sees one order. Linear fold, like TeamState.
 */
export interface InboxState {
  readonly entries: InboxEntry[];
  readonly pending: { readonly 'next-turn': number[]; readonly 'next-step': number[] };
  /** Latest entry index of each message id. */
  readonly byId: Map<MessageId, number>;
}

export const initialInboxState = (): InboxState => ({
  entries: [],
  pending: { 'next-turn': [], 'next-step': [] },
  byId: new Map(),
});

interface MessageLike {
  readonly id: MessageId;
  readonly content: readonly ContentBlock[];
  readonly source: MessageSource;
}

const record = (
  state: InboxState,
  message: MessageLike,
  list: InboxList | undefined,
  origin: InboxOrigin,
  seq: number,
  status: InboxEntryStatus = 'pending',
): number => {
  const index = state.entries.length;
  state.entries.push({
    id: message.id,
    ...(list === undefined ? {} : { list }),
    origin,
    source: message.source,
    content: message.content,
    acceptedSeq: seq,
    status,
    ...(status === 'pending' ? {} : { settledSeq: seq }),
  });
  state.byId.set(message.id, index);
  return index;
};

const settle = (state: InboxState, index: number, status: InboxEntryStatus, seq: number): void => {
  const entry = state.entries[index];
  if (entry !== undefined && entry.status === 'pending') state.entries[index] = { ...entry, status, settledSeq: seq };
};

/** Fold one session event into its inbox; an event its codec refuses moves nothing. */
export const evolveInbox = (state: InboxState, event: StreamEvent): InboxState => {
  if (!event.catalog) return state;
  switch (event.type) {
    case 'agent/inbox/spliced': {
      const { target: list, start, removedCount, outcome } = event.data;
      const inserted = event.data.inserted.map((message) => record(state, message, list, 'spliced', event.seq));
      const removed = state.pending[list].splice(start, removedCount ?? 0, ...inserted);
      const status: InboxEntryStatus = outcome === 'canceled' ? 'canceled' : 'claimed';
      removed.forEach((index) => settle(state, index, status, event.seq));
      return state;
    }
    case 'teamlog/inbox/accepted': {
      const { list, message } = event.data;
      state.pending[list].push(record(state, message, list, 'accepted', event.seq));
      return state;
    }
    case 'teamlog/inbox/claimed':
    case 'teamlog/inbox/canceled': {
      const { list } = event.data;
      const ids = new Set<MessageId>(event.data.messageIds);
      const status: InboxEntryStatus = event.type === 'teamlog/inbox/claimed' ? 'claimed' : 'canceled';
      const keep: number[] = [];
      for (const index of state.pending[list]) {
        if (ids.has((state.entries[index] as InboxEntry).id)) settle(state, index, status, event.seq);
        else keep.push(index);
      }
      state.pending[list].splice(0, state.pending[list].length, ...keep);
      return state;
    }
    case 'user/message': {
      const message = event.data;
      // A peer message that never passed through the lists (a quiet inject) was accepted and claimed at once.
      if (isPeerSource(message.source) && !state.byId.has(message.id))
        record(state, message, undefined, 'direct', event.seq, 'claimed');
      return state;
    }
    default:
      return state;
  }
};

export const pendingEntries = (state: InboxState, list: InboxList): InboxEntry[] =>
  state.pending[list].map((index) => state.entries[index] as InboxEntry);
