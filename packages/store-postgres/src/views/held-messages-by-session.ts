import type { MessageId, SessionId } from '@teamlog/events';
import { type HeldMessages, InMemoryHeldMessages } from '@teamlog/projections';

/**
 * Every message id the views' sessions hold, in memory, one set per session. The fold asks
 * whether an id is held synchronously, and a server database cannot be asked synchronously, so
 * the view store loads them all with the views (SQLite looks them up in its file instead); the
 * price is memory in proportion to the messages the logs hold (docs/scale-out.md).
 */
export class HeldMessagesBySession {
  private readonly sessions = new Map<SessionId, InMemoryHeldMessages>();

  /** The held ids of one session: the same set every time it is asked for. */
  readonly of = (sessionId: SessionId): HeldMessages => {
    let held = this.sessions.get(sessionId);
    if (held === undefined) {
      held = new InMemoryHeldMessages();
      this.sessions.set(sessionId, held);
    }
    return held;
  };

  /** An id loaded from the views, with the seq it was first held at. */
  add(sessionId: SessionId, messageId: MessageId, seq: number): void {
    this.of(sessionId).hold(messageId, seq);
  }
}
