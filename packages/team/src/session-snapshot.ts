import type {
  CloseReason,
  ContentBlock,
  InboxList,
  MessageId,
  MessageSource,
  SessionId,
  SessionRole,
  TeamId,
} from '@teamlog/events';
import { type InboxEntryStatus, type SessionStatus, type SessionStreamState, pendingEntries } from '@teamlog/domain';

export interface InboxEntrySnapshot {
  readonly id: MessageId;
  readonly list?: InboxList;
  readonly status: InboxEntryStatus;
  readonly source: MessageSource;
  /** As accepted: a Team message starts with its `Team message from <senderName>:` block. */
  readonly content: readonly ContentBlock[];
  readonly acceptedSeq: number;
  readonly settledSeq?: number;
}

/** A session as its own stream tells it, copied out of the fold (safe to keep). */
export interface SessionSnapshot {
  readonly sessionId: SessionId;
  readonly teamId?: TeamId;
  readonly role?: SessionRole;
  readonly name?: string;
  readonly status: SessionStatus;
  readonly closeReason?: CloseReason;
  readonly turn: number;
  readonly step?: number;
  readonly stepOpen: boolean;
  /** The stream's last revision (-1: no stream). */
  readonly revision: number;
  readonly pending: { readonly 'next-turn': readonly MessageId[]; readonly 'next-step': readonly MessageId[] };
  /** Every message the inbox ever accepted, in acceptance order. */
  readonly inbox: readonly InboxEntrySnapshot[];
}

export const sessionSnapshot = (sessionId: SessionId, state: SessionStreamState): SessionSnapshot => {
  const { lifecycle, inbox } = state;
  return {
    sessionId,
    ...(lifecycle.teamId === undefined ? {} : { teamId: lifecycle.teamId }),
    ...(lifecycle.role === undefined ? {} : { role: lifecycle.role }),
    ...(lifecycle.name === undefined ? {} : { name: lifecycle.name }),
    status: lifecycle.status,
    ...(lifecycle.closeReason === undefined ? {} : { closeReason: lifecycle.closeReason }),
    turn: lifecycle.turn,
    ...(lifecycle.step === undefined ? {} : { step: lifecycle.step }),
    stepOpen: state.stepOpen,
    revision: state.revision,
    pending: {
      'next-turn': pendingEntries(inbox, 'next-turn').map((entry) => entry.id),
      'next-step': pendingEntries(inbox, 'next-step').map((entry) => entry.id),
    },
    inbox: inbox.entries.map((entry) => ({
      id: entry.id,
      ...(entry.list === undefined ? {} : { list: entry.list }),
      status: entry.status,
      source: entry.source,
      content: entry.content,
      acceptedSeq: entry.acceptedSeq,
      ...(entry.settledSeq === undefined ? {} : { settledSeq: entry.settledSeq }),
    })),
  };
};
