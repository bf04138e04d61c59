import { type SessionId, teamIdOf } from '@teamlog/events';
import { type TeamlogViews, eventClockOf } from '@teamlog/projections';
import { type EventStore, type RecordedEvent, comparePositions, sessionStream, isStoreError } from '@teamlog/store';
import { type ConversationItem, type TranscriptContext, type TranscriptEvent, conversationOf } from './conversation';
import { seqBaseOf } from './event-document';
import { legacyMailbox } from './legacy-mailbox';
import type { AsOfParam } from './query-codecs';

/** Events read for one page of a transcript; the answer says where the next page starts. */
export const conversationPageEvents = 2000;

export interface ConversationPage {
  readonly sessionId: SessionId;
  readonly items: readonly ConversationItem[];
  /** The seq the next page starts at; absent when the page reached the end (or the moment asked for). */
  readonly nextSeq?: number;
}

/** Whether an event is past the moment: a position cut, or (as the as-of fold cuts a stream) its first event later than the time. */
const pastMoment = (asOf: AsOfParam | undefined, event: RecordedEvent): boolean =>
  asOf === undefined
    ? false
    : 'position' in asOf
      ? comparePositions(event.position, asOf.position) > 0
      : eventClockOf(event).time > asOf.time;

const contextOf = (views: TeamlogViews, sessionId: SessionId): TranscriptContext => {
  const inboxStatus = new Map<string, { status: string; list?: string }>();
  for (const entry of views.inbox({ sessionId })) {
    const known = { status: entry.status, ...(entry.list === undefined ? {} : { list: entry.list }) };
    inboxStatus.set(entry.messageId, known);
    inboxStatus.set(entry.itemId, known);
  }
  const legacyStatus = new Map(
    // A team's id is its Lead's session id: only a Lead's stream holds mailbox records of its own team.
    legacyMailbox(views.teams(), { teamId: teamIdOf(sessionId) }).messages.map(
      (row) => [row.id as string, { status: row.status, targetName: row.targetName }] as const,
    ),
  );
  return { inboxStatus, legacyStatus };
};

/**
 * One page of a session's transcript, read from its stream (the views hold no text) from `fromSeq`,
 * up to the moment when one is given; the statuses come from the views at that moment. A session a
 * later generation superseded is the transcript of that generation alone, as the views fold it: it
 * starts after the last `teamlog/import/superseded` and its seqs count from there
 * (docs/rules.md#import-superseded).
 */
export const readConversation = async (
  store: EventStore,
  views: TeamlogViews,
  sessionId: SessionId,
  options: { readonly fromSeq: number; readonly asOf?: AsOfParam },
): Promise<ConversationPage> => {
  const events: TranscriptEvent[] = [];
  let nextSeq: number | undefined;
  const base = seqBaseOf(views)(sessionId);
  try {
    for await (const event of store.readStream(sessionStream(sessionId), {
      from: BigInt(base + options.fromSeq),
      maxCount: conversationPageEvents + 1,
    })) {
      if (pastMoment(options.asOf, event)) break;
      const seq = Number(event.revision) - base;
      if (events.length === conversationPageEvents) {
        nextSeq = seq;
        break;
      }
      events.push({ seq, type: event.type, data: event.data, time: eventClockOf(event).time });
    }
  } catch (error) {
    if (!isStoreError(error, 'StreamNotFound')) throw error;
  }
  return {
    sessionId,
    items: conversationOf(events, contextOf(views, sessionId)),
    ...(nextSeq === undefined ? {} : { nextSeq }),
  };
};
