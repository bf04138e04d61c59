import type { MessageId } from '@teamlog/events';

/**
 * The message ids a session's log holds (user messages, inbox items, `team-message` source ids),
 * each with the seq it first appeared at: the legacy mailbox's `targetHasMessage`. A log may hold
 * millions of them, so a view store may keep them outside the heap (SqliteHeldMessages).
 */
export interface HeldMessages {
  has(id: MessageId): boolean;
  /**
   * Hold `id`, seen at `seq`; true when the id is to be written with the next commit, false when
   * it is known to be held already. The first seq is the one that stays.
   */
  hold(id: MessageId, seq: number): boolean;
  /** The views holding the ids held since the last commit were committed. */
  committed(): void;
  /**
   * A later generation superseded the session (docs/rules.md#import-superseded): the ids held so
   * far are held no more. A view store that keeps them elsewhere drops them with its next commit.
   */
  forget(): void;
}

/** Held ids in a Map, for views kept in memory. */
export class InMemoryHeldMessages implements HeldMessages {
  private readonly ids = new Map<MessageId, number>();

  has(id: MessageId): boolean {
    return this.ids.has(id);
  }

  hold(id: MessageId, seq: number): boolean {
    if (this.ids.has(id)) return false;
    this.ids.set(id, seq);
    return true;
  }

  committed(): void {}

  forget(): void {
    this.ids.clear();
  }
}
