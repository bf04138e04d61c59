import type Database from 'better-sqlite3';
import type { MessageId, SessionId } from '@teamlog/events';
import type { HeldMessages } from '@teamlog/projections';

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
    /** Whether the id was set aside by the unit being folded (SqliteViewStore.setAside). */
    private readonly setAside: (sessionId: SessionId, id: MessageId) => boolean = () => false,
  ) {}

  has(id: MessageId): boolean {
    return (
      this.pending.has(id) || this.lookup.get(this.sessionId, id) !== undefined || this.setAside(this.sessionId, id)
    );
  }

  /**
   * No lookup in the file while folding: an id held in an earlier batch is written again and the
   * commit's INSERT OR IGNORE keeps the row (and so the first seq) it has.
   */
  hold(id: MessageId, _seq: number): boolean {
    if (this.pending.has(id)) return false;
    this.pending.add(id);
    return true;
  }

  committed(): void {
    this.pending.clear();
  }

  /** The file's ids go with the commit (the view store drops a reset session's rows). */
  forget(): void {
    this.pending.clear();
  }
}
