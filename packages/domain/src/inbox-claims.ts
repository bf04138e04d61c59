import type { EventOf, InboxList, MessageId, NonNegativeInteger } from '@teamlog/events';
import { type InboxEntry, type InboxState, pendingEntries } from './inbox-state';

export type ClaimEvent = EventOf<'teamlog/inbox/claimed'> | EventOf<'user/message'>;
export type CancelEvent = EventOf<'teamlog/inbox/canceled'>;

/** Turn and step numbers come from the lifecycle fold, which only holds non-negative integers. */
const count = (n: number): NonNegativeInteger => n as NonNegativeInteger;

const idsOf = (entries: readonly InboxEntry[]): MessageId[] => entries.map((entry) => entry.id);

/** The pending entries of the given lists, in acceptance order. */
export const pendingIn = (inbox: InboxState, lists: readonly InboxList[]): InboxEntry[] =>
  lists.flatMap((list) => pendingEntries(inbox, list)).sort((a, b) => a.acceptedSeq - b.acceptedSeq);

/** The conversation copy of a claimed message: the same id, content and source as accepted. */
const conversationMessage = (entry: InboxEntry): EventOf<'user/message'> => ({
  type: 'user/message',
  data: { id: entry.id, role: 'user', content: entry.content, source: entry.source },
});

/**
 * Claim everything pending on the given lists: one claim record per list, then the messages
 * enter the conversation as `user/message` with the ids they were accepted under.
 */
export const claimPending = (
  inbox: InboxState,
  lists: readonly InboxList[],
  turn: number,
  step?: number,
): ClaimEvent[] => {
  const claims: ClaimEvent[] = [];
  for (const list of lists) {
    const entries = pendingEntries(inbox, list);
    if (entries.length === 0) continue;
    claims.push({
      type: 'teamlog/inbox/claimed',
      data: {
        list,
        messageIds: idsOf(entries),
        turn: count(turn),
        ...(step === undefined ? {} : { step: count(step) }),
      },
    });
  }
  return [...claims, ...pendingIn(inbox, lists).map(conversationMessage)];
};

/** Remove pending entries without claiming them (an aborted steered turn, a closed session). */
export const cancelPending = (inbox: InboxState, lists: readonly InboxList[], reason: string): CancelEvent[] =>
  lists.flatMap((list) => {
    const entries = pendingEntries(inbox, list);
    return entries.length === 0
      ? []
      : [{ type: 'teamlog/inbox/canceled' as const, data: { list, messageIds: idsOf(entries), reason } }];
  });
