import type { SessionId } from '@teamlog/events';
import { type EventStore, sessionStream } from '@teamlog/store';

/** Starts telling `onAccepted` of each message the inbox accepts from now on; the returned function stops it. */
export type InboxWatch = (onAccepted: () => void) => () => Promise<void>;

const acceptedType = 'teamlog/inbox/accepted';

/**
 * An inbox watch over the store's `$all` subscription: it sees acceptances written by any process
 * sharing the store (SQLite polls the file for other writers). Started only when a client subscribes.
 */
export const storeInboxWatch =
  (store: EventStore, sessionId: SessionId, onError: (error: unknown) => void): InboxWatch =>
  (onAccepted) => {
    const stream = sessionStream(sessionId);
    const subscription = store.subscribeToAll({ fromPosition: 'end' });
    const running = (async () => {
      for await (const event of subscription)
        if (event.streamName === stream && event.type === acceptedType) onAccepted();
    })().catch(onError);
    return async () => {
      await subscription.unsubscribe();
      await running;
    };
  };
