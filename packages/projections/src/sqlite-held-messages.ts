import type Database from 'better-sqlite3';
import { MessageId, SessionId } from '@teamlog/events';
import { HeldMessages } from './held-messages';

/**
 * Held ids of one session read from `projection_held_messages`, plus those held since the last
 * commit (which the commit writes, then forgets here). Only the current batch is in memory, however
 * many messages the log holds. Reads need the store's connection open.
 */
export class SqliteHeldMessages implements HeldMessages {
  private readonly pending = new Set<MessageId>();

  constructor(
    private readonly sessionId: SessionId,
    private readonly lookup: Database.Statement<[string, string]>,
  ) {}

  has(id: MessageId): boolean {
    return this.pending.has(id) || this.lookup.get(this.sessionId, id) !== undefined;
  }

  hold(id: MessageId, _seq: number): boolean {
    if (this.has(id)) return false;
    this.pending.add(id);
    return true;
  }

  committed(): void {
    this.pending.clear();
  }
}
