import type Database from 'better-sqlite3';
import type { SessionId } from '@teamlog/events';
import { type GlobalPosition, formatPosition } from '@teamlog/store';
import { viewMigrations } from '../migrations/view-migrations';
import { type Migration, applyMigrations } from '../sqlite-migrations';
import { SqliteHeldMessages } from './sqlite-held-messages';
import { BatchedInsert } from './batched-insert';
import { type WriteStatement, writeStatement, writesRouted } from '../write-route';
import { SqliteTeamRows, teamTables } from './sqlite-team-rows';
import {
  clearChanges,
  forEachChangedInboxEntry,
  type HeldMessages,
  InboxEntryRecord,
  inboxEntryRecordShape,
  inboxEntryValues,
  inboxOf,
  initialProjectionState,
  type LoadedViews,
  PendingLists,
  type ProjectionState,
  restoreInboxEntry,
  SessionFacts,
  sqlNumber,
  type ViewRow,
  ViewRowDecoder,
  type SyncViewStore,
  ProjectionError,
} from '@teamlog/projections';

export const projectionSchemaTable = 'projection_schema_migrations';

export interface SqliteViewStoreOptions {
  /** Names the checkpoint row; one file can hold several projections' checkpoints. */
  readonly projection?: string;
  /** The view schema's migrations (default: the ones this package ships, from `migrations/projections-sqlite`). */
  readonly migrations?: readonly Migration[];
  readonly clock?: () => Date;
  /**
   * Called inside the commit transaction after the views are written and before the checkpoint
   * is: fault-injection tests crash the process here to show the two cannot come apart.
   */
  readonly onViewsWritten?: () => void;
}

type Row = ViewRow;

/*
 * Held ids of a unit folded as it is staged wait here until its commit (the views' `setAside`): a
 * temporary table, so an abort or a crash leaves the file as it was and memory does not grow with
 * the unit (docs/rules.md#one-pass-import).
 */
const setAsideTable = 'temp.teamlog_set_aside_held';
const setAsideTableExists = "SELECT 1 FROM temp.sqlite_master WHERE type = 'table' AND name = 'teamlog_set_aside_held'";

interface SetAsideStatements {
  readonly put: Database.Statement<[string, string, number]>;
  readonly has: Database.Statement<[string, string]>;
  readonly write: Database.Statement;
  readonly clear: Database.Statement;
  /** The set-aside ids in the order they were set aside (what a routed commit hands on). */
  readonly each: Database.Statement<[], { session_id: string; message_id: string; seq: number | bigint }>;
}

/** better-sqlite3 is synchronous: run the work now, and report its outcome as the port's promise. */
const settled = <A>(work: () => A): Promise<A> => {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
};

const text = (value: unknown): string => String(value);
const num = (value: unknown): number => Number(value);

/**
 * The teamlog views in SQLite tables (schema in migrations/projections-sqlite), on any
 * better-sqlite3 connection; with SqliteEventStore, its own connection, so an event store file
 * carries its views. Only what changed since the last commit is written.
 */
export class SqliteViewStore implements SyncViewStore<ProjectionState> {
  private readonly projection: string;
  private readonly clock: () => Date;
  private readonly onViewsWritten: () => void;
  /** The checkpoint this store last loaded or committed: a commit expects to find it unchanged. */
  private expected: GlobalPosition | undefined;
  private readonly rows: ViewRowDecoder;
  private readonly teams: SqliteTeamRows;
  /** Held message ids stay in the file (a log may hold millions); only a batch's new ones are in memory. */
  private readonly heldMessagesOf: (sessionId: SessionId) => HeldMessages;
  /** Prepared at the first `setAside` (a read-only use of the views never creates the temporary table). */
  private setAsideStatements: SetAsideStatements | undefined;
  private readonly checkpointOf: Database.Statement;
  private readonly statements: Record<
    'putCheckpoint' | 'putSession' | 'putEntry' | 'putLists' | 'putHeld',
    WriteStatement
  >;
  /** The set-aside held ids, when the commit's writes are routed to the writer thread's connection. */
  private readonly putHeldBatched: BatchedInsert;
  /** Every row of one session, table by table: what a supersession drops (PendingChanges.resets). */
  private readonly dropSession: readonly WriteStatement[];

  constructor(
    private readonly db: Database.Database,
    file: string,
    options: SqliteViewStoreOptions = {},
  ) {
    this.projection = options.projection ?? 'teamlog-views';
    this.clock = options.clock ?? (() => new Date());
    this.onViewsWritten = options.onViewsWritten ?? (() => undefined);
    applyMigrations(db, options.migrations ?? viewMigrations, file, projectionSchemaTable);
    this.rows = new ViewRowDecoder(file);
    this.teams = new SqliteTeamRows(db, this.rows);
    this.checkpointOf = db.prepare(
      'SELECT position_commit, position_prepare FROM projection_checkpoints WHERE projection = ?',
    );
    this.statements = {
      putCheckpoint: writeStatement(
        db,
        `INSERT INTO projection_checkpoints (projection, position_commit, position_prepare, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (projection) DO UPDATE SET position_commit = excluded.position_commit,
           position_prepare = excluded.position_prepare, updated_at = excluded.updated_at`,
      ),
      putSession: writeStatement(db, 'INSERT OR REPLACE INTO projection_sessions (session_id, facts) VALUES (?, ?)'),
      putEntry: writeStatement(
        db,
        `INSERT OR REPLACE INTO projection_inbox_entries (session_id, entry_index, item_id, message_id, list, origin, source_kind, source,
           sender_session_id, accepted_seq, accepted_time, normalised, status, settled_seq, settled_time, header)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      putLists: writeStatement(
        db,
        'INSERT OR REPLACE INTO projection_inbox_lists (session_id, next_turn, next_step) VALUES (?, ?, ?)',
      ),
      putHeld: writeStatement(
        db,
        'INSERT OR IGNORE INTO projection_held_messages (session_id, message_id, seq) VALUES (?, ?, ?)',
      ),
    };
    this.putHeldBatched = new BatchedInsert(
      db,
      'INSERT OR IGNORE INTO projection_held_messages (session_id, message_id, seq)',
      3,
    );
    this.dropSession = [
      ...teamTables.map((table) => writeStatement(db, `DELETE FROM ${table} WHERE lead_session_id = ?`)),
      ...['projection_inbox_entries', 'projection_inbox_lists', 'projection_held_messages'].map((table) =>
        writeStatement(db, `DELETE FROM ${table} WHERE session_id = ?`),
      ),
    ];
    const isHeld = db.prepare<[string, string]>(
      'SELECT 1 FROM projection_held_messages WHERE session_id = ? AND message_id = ?',
    );
    const isSetAside = (sessionId: SessionId, id: string): boolean =>
      this.setAsideStatements?.has.get(sessionId, id) !== undefined;
    this.heldMessagesOf = (sessionId) => new SqliteHeldMessages(sessionId, isHeld, isSetAside);
  }

  /** Move the held ids folded since the last commit to the temporary table the next commit writes from. */
  setAside(state: ProjectionState): void {
    const { held } = state.changes;
    if (held.length === 0) return;
    const statements = this.setAsideTableStatements();
    this.db.transaction(() => {
      for (const { sessionId, messageId, seq } of held) statements.put.run(sessionId, messageId, seq);
    })();
    new Set(held.map(({ sessionId }) => sessionId)).forEach((id) => state.inboxes.get(id)?.held.committed());
    held.length = 0;
  }

  private setAsideTableStatements(): SetAsideStatements {
    if (this.setAsideStatements !== undefined) return this.setAsideStatements;
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${setAsideTable} (session_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL)`,
    );
    this.db.exec(
      `CREATE INDEX IF NOT EXISTS temp.teamlog_set_aside_held_id ON teamlog_set_aside_held (session_id, message_id)`,
    );
    this.setAsideStatements = {
      put: this.db.prepare(`INSERT INTO ${setAsideTable} (session_id, message_id, seq) VALUES (?, ?, ?)`),
      has: this.db.prepare(`SELECT 1 FROM ${setAsideTable} WHERE session_id = ? AND message_id = ? LIMIT 1`),
      // In the order they were set aside, so INSERT OR IGNORE keeps each id's first seq.
      write: this.db.prepare(
        `INSERT OR IGNORE INTO projection_held_messages (session_id, message_id, seq)
         SELECT session_id, message_id, seq FROM ${setAsideTable} ORDER BY rowid`,
      ),
      clear: this.db.prepare(`DELETE FROM ${setAsideTable}`),
      each: this.db.prepare(`SELECT session_id, message_id, seq FROM ${setAsideTable} ORDER BY rowid`),
    };
    return this.setAsideStatements;
  }

  /**
   * Drop the ids set aside by a unit that will not commit. A unit that writes in place created the
   * temporary table inside its own transaction: the rollback took the table away, so its
   * statements are forgotten and the next `setAside` creates it again.
   */
  private dropSetAside(): void {
    if (this.setAsideStatements === undefined || !this.db.open) return;
    if (this.db.prepare(setAsideTableExists).get() === undefined) this.setAsideStatements = undefined;
    else this.setAsideStatements.clear.run();
  }

  load(): Promise<LoadedViews<ProjectionState>> {
    return settled(() => this.loadNow());
  }

  commit(state: ProjectionState, checkpoint: GlobalPosition): Promise<void> {
    return settled(() => this.commitNow(state, checkpoint));
  }

  reset(): Promise<LoadedViews<ProjectionState>> {
    return settled(() => this.resetNow());
  }

  /** After a rolled-back transaction: the views as durably committed, read again. */
  restoreNow(): LoadedViews<ProjectionState> {
    this.dropSetAside();
    return this.loadNow();
  }

  /** The committed views and checkpoint, read in one transaction. */
  loadNow(): LoadedViews<ProjectionState> {
    const read = this.db.transaction(() => ({ state: this.loadState(), checkpoint: this.loadCheckpoint() }));
    const loaded = read.deferred();
    this.expected = loaded.checkpoint;
    return loaded;
  }

  /** Throws ViewsChangedElsewhere, writing nothing, when another runner committed since this one loaded. */
  commitNow(state: ProjectionState, checkpoint: GlobalPosition): void {
    const write = (): void => {
      this.assertUnchanged();
      this.writeChanges(state);
      this.onViewsWritten();
      this.statements.putCheckpoint.run(
        this.projection,
        checkpoint.commit.toString(),
        checkpoint.prepare.toString(),
        this.clock().getTime(),
      );
    };
    // Routed: the writer thread's transaction holds the write lock and takes these rows with its events.
    if (writesRouted(this.db)) write();
    else this.db.transaction(write).immediate();
    this.expected = checkpoint;
    clearChanges(state);
  }

  private assertUnchanged(): void {
    const found = this.loadCheckpoint();
    const text = (position: GlobalPosition | undefined) => (position === undefined ? 'none' : formatPosition(position));
    if (text(found) !== text(this.expected))
      throw new ProjectionError({
        code: 'ViewsChangedElsewhere',
        projection: this.projection,
        expected: text(this.expected),
        found: text(found),
      });
  }

  resetNow(): LoadedViews<ProjectionState> {
    this.db
      .transaction(() => {
        for (const table of [
          'projection_sessions',
          ...teamTables,
          'projection_inbox_entries',
          'projection_inbox_lists',
          'projection_held_messages',
        ]) {
          this.db.prepare(`DELETE FROM ${table}`).run();
        }
        this.db.prepare('DELETE FROM projection_checkpoints WHERE projection = ?').run(this.projection);
      })
      .immediate();
    this.dropSetAside();
    this.expected = undefined;
    return { state: initialProjectionState(this.heldMessagesOf), checkpoint: undefined };
  }

  private writeChanges(state: ProjectionState): void {
    const { changes } = state;
    const { putSession, putEntry, putLists, putHeld } = this.statements;
    changes.resets.forEach((id) => this.dropSession.forEach((statement) => statement.run(id)));
    changes.sessions.forEach((id) => {
      const facts = state.sessions.get(id);
      if (facts !== undefined) putSession.run(id, JSON.stringify(facts));
    });
    this.teams.write(state);
    forEachChangedInboxEntry(state, (id, index, entry, detail) =>
      putEntry.run(id, index, ...inboxEntryValues(entry, detail, (normalised) => (normalised ? 1 : 0))),
    );
    changes.inboxLists.forEach((id) => {
      const inbox = state.inboxes.get(id);
      if (inbox !== undefined)
        putLists.run(
          id,
          JSON.stringify(inbox.state.pending['next-turn']),
          JSON.stringify(inbox.state.pending['next-step']),
        );
    });
    const setAside = this.setAsideStatements;
    if (setAside !== undefined) {
      // The temporary table is this connection's own: routed, its rows travel as values.
      if (writesRouted(this.db)) {
        for (const row of setAside.each.iterate()) this.putHeldBatched.add([row.session_id, row.message_id, row.seq]);
        this.putHeldBatched.flush();
      } else setAside.write.run();
      setAside.clear.run();
    }
    changes.held.forEach(({ sessionId, messageId, seq }) => putHeld.run(sessionId, messageId, seq));
  }

  private loadCheckpoint(): GlobalPosition | undefined {
    const row = this.checkpointOf.get(this.projection) as Row | undefined;
    return row === undefined
      ? undefined
      : { commit: BigInt(text(row.position_commit)), prepare: BigInt(text(row.position_prepare)) };
  }

  private loadState(): ProjectionState {
    const state = initialProjectionState(this.heldMessagesOf);
    for (const row of this.db.prepare('SELECT session_id, facts FROM projection_sessions').all() as Row[]) {
      const id = text(row.session_id) as SessionId;
      const facts = this.rows.decode(
        SessionFacts,
        this.rows.parse(row.facts, 'projection_sessions', id),
        'projection_sessions',
        id,
      );
      state.sessions.set(id, facts as SessionFacts);
    }
    this.teams.load().forEach((team, id) => state.teams.set(id, team));
    this.loadInboxes(state);
    return state;
  }

  private loadInboxes(state: ProjectionState): void {
    const entries = this.db
      .prepare('SELECT * FROM projection_inbox_entries ORDER BY session_id, entry_index')
      .all() as Row[];
    for (const row of entries) {
      const id = text(row.session_id) as SessionId;
      const where = `${id}#${text(row.entry_index)}`;
      const record = this.rows.decode(
        InboxEntryRecord,
        this.entryRecord(row, where),
        'projection_inbox_entries',
        where,
      ) as InboxEntryRecord;
      restoreInboxEntry(state, id, num(row.entry_index), record, (expected) =>
        this.rows.corrupt('projection_inbox_entries', where, `entry index is not dense (expected ${expected})`),
      );
    }
    for (const row of this.db.prepare('SELECT * FROM projection_inbox_lists').all() as Row[]) {
      const id = text(row.session_id) as SessionId;
      const lists = this.rows.decode(
        PendingLists,
        {
          'next-turn': this.rows.parse(row.next_turn, 'projection_inbox_lists', id),
          'next-step': this.rows.parse(row.next_step, 'projection_inbox_lists', id),
        },
        'projection_inbox_lists',
        id,
      );
      const { pending } = inboxOf(state, id).state;
      pending['next-turn'].push(...lists['next-turn']);
      pending['next-step'].push(...lists['next-step']);
    }
  }

  /** The row as inboxEntryRecordShape reads it: JSON parsed, integers as numbers, `normalised` a boolean. */
  private entryRecord(row: Row, where: string): unknown {
    return inboxEntryRecordShape({
      ...row,
      item_id: text(row.item_id),
      source: this.rows.parse(row.source, 'projection_inbox_entries', where),
      accepted_seq: sqlNumber(row.accepted_seq),
      settled_seq: row.settled_seq === null ? null : sqlNumber(row.settled_seq),
      message_id: text(row.message_id),
      accepted_time: sqlNumber(row.accepted_time),
      normalised: num(row.normalised) === 1,
      header: row.header === null ? null : this.rows.parse(row.header, 'projection_inbox_entries', where),
      settled_time: row.settled_time === null ? null : sqlNumber(row.settled_time),
    });
  }
}
