import { rollbackJournal, walAfterBulkLoad } from './bulk-load-journal';
import Database from 'better-sqlite3';
import type { EventId, JsonValue } from '@teamlog/events';
import {
  type AppendOptions,
  type AppendResult,
  type AppendSettled,
  AppendSignal,
  type CommitParticipant,
  type Detach,
  type EventStore,
  type EventToAppend,
  type GlobalPosition,
  type KnownRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  duplicateEventId,
  type StoredIdentity,
  type StoredLink,
  type StagedStreamResult,
  StreamHeads,
  type StreamName,
  storeClosed,
  type SubscribeToAllOptions,
  type Subscription,
  assertExpectedRevision,
  assertValidBatch,
  catchUpSubscription,
  meetsExpectedRevision,
  resolveRetry,
  streamNotFound,
} from '@teamlog/store';
import { existsSync } from 'node:fs';
import { type StageAppendsOptions, type StagedAppends, streamPages } from '@teamlog/store';
import { eventStoreMigrations } from './migrations/event-store-migrations';
import { ChainCursor, hasChainColumn, registerChainFunctions, storedLinks } from './sqlite-event-chain';
import { type Migration, applyMigrations } from './sqlite-migrations';
import { SqliteStoreError } from './sqlite-store-errors';
import { sqliteWrittenUnit } from './sqlite-written-unit';
import { ConnectionHold } from './connection-hold';
import { WriterThread } from './sqlite-writer-thread';
import { sqliteWriterUnit } from './sqlite-writer-unit';
import { type EncodedEvent, EventInserts, pushEventRow } from './event-rows';
import { GroupRows } from './group-rows';
import { PendingAppend, noRecorded } from './pending-append';
import { encodedEvents } from './encoded-events';
import { type KeptChainEnd, KeptChainEnds } from './kept-chain-ends';
import {
  assertNotNewer,
  assertStoreFileShape,
  createStoreFile,
  openReadOnly,
  storeSchemaVersion,
} from './sqlite-store-file';

export interface SqliteEventStoreOptions {
  /** The schema migrations (default: the ones this package ships, from the repository's `migrations/sqlite`). */
  readonly migrations?: readonly Migration[];
  /** How often a subscription looks for appends made by other processes. */
  readonly pollIntervalMs?: number;
  /** How long a writer waits for another process's write lock before failing. */
  readonly busyTimeoutMs?: number;
  readonly clock?: () => Date;
  /**
   * The most events one group commit writes (default 10 000); an append is never split, so a larger
   * one is a group of its own. Bounds how long a group holds the file's write lock.
   */
  readonly maxGroupEvents?: number;
  /**
   * The encoded bytes of a unit of staged appends whose event objects are kept to hand commit
   * participants, when the caller holds them anyway (default 64 MiB); a larger unit is read back from the store inside its commit, page by page.
   */
  readonly maxKeptStagedBytes?: number;
  /**
   * Write units of appends (an import) on a second thread that owns a write connection of its own:
   * this thread reads, validates, encodes and folds the views; rows go to the writer as transferred
   * bytes, and it chains and inserts them and writes the views' rows in the same transaction
   * (sqlite-writer-thread.ts). Default false: each row is written on this thread
   * (sqlite-written-unit.ts). Ignored for `:memory:` (a second connection would not see it).
   */
  readonly writerThread?: boolean;
  /**
   * Called on this thread right after the writer thread starts. Starting a worker sets V8's
   * young-generation growth factor (a process-wide flag) back to its default, so a process that
   * held its young generation (the CLI) holds it again here; otherwise this thread's young
   * generation grows to 16 MiB semi-spaces (docs/benchmarks.md, _The writer thread's memory_).
   */
  readonly writerThreadStarted?: () => void;
  /**
   * The encoded bytes a unit of appends keeps in memory before it takes the file's write lock and
   * writes its rows in place, holding that transaction to its end (default 8 MiB; see sqlite-written-unit.ts).
   */
  readonly maxBufferedUnitBytes?: number;
  /**
   * When this open creates the file, the connection writes it with a rollback journal
   * (`journal_mode = DELETE`, synchronous FULL) until `close`, which turns it to WAL as every store
   * file is. Pages past a new file's end are never journalled, so a one-shot import writes each page
   * once, where WAL writes it to the log and the checkpoint copies it again (docs/benchmarks.md,
   * _A new store file's import writes each page once_). The price: once a transaction spills, the
   * writer locks readers out, so only a command that imports and ends asks for it (replay, import),
   * never one that serves or follows. An existing file, `:memory:` and the writer thread stay on WAL;
   * a file another connection opened meanwhile stays on WAL, and one left in rollback mode (a killed
   * import) is turned to WAL by the next writer's open, which also rolls back its hot journal.
   */
  readonly bulkLoadWhenCreated?: boolean;
}

interface EventRow {
  position: number | bigint;
  stream_name: string;
  revision: number | bigint;
  event_id: string;
  type: string;
  data: string;
  metadata: string | null;
  recorded_at: number;
}

const pageSize = 1000;
/**
 * Commits made by every SqliteEventStore of this process. A connection's look at `data_version`
 * (which only moves for other connections' commits) serves its `knownRevision` answers for the
 * rest of the event-loop turn, unless a connection of this process commits meanwhile.
 */
let processCommits = 0;
// Duck-typed: better-sqlite3's SqliteError may come from another realm (jest loads the native module once per worker).
const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE';

const knownVersion = (migrations: readonly Migration[]): number =>
  migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
const toPosition = (position: number | bigint): GlobalPosition => {
  const value = BigInt(position);
  return { commit: value, prepare: value };
};

/** An append that failed alone (a wrong expected revision, a duplicate id): its error is handed over after the commit. */
const failWith = (append: PendingAppend, error: unknown): void => {
  append.failed = true;
  append.error = error;
};

/** The append's promise settles with what its continuation returns, or rejects with what it throws. */
const resolveThrough = (append: PendingAppend, continuation: () => unknown): void => {
  let value: unknown;
  try {
    value = continuation();
  } catch (thrown) {
    append.reject(thrown);
    return;
  }
  append.resolve(value);
};

/** The append's caller gets its error, or what its continuation makes of it (which may retry). */
const fail = (append: PendingAppend, error: unknown): void => {
  const { settled } = append;
  if (settled === undefined) {
    append.reject(error);
    return;
  }
  resolveThrough(append, () => settled.failed(error));
};

/** After the commit: the append's stream head becomes known, and its caller gets its result or error. */
const settle = (append: PendingAppend, heads: StreamHeads): void => {
  if (append.failed) {
    fail(append, append.error);
    return;
  }
  const result = append.result as AppendResult;
  heads.set(append.stream, result.nextExpectedRevision < 0n ? undefined : result.nextExpectedRevision);
  const { settled } = append;
  if (settled === undefined) {
    append.resolve(append.plainResult());
    return;
  }
  // The continuation runs now, in the commit's turn: the caller's promise is this one, no hop
  // between. resolveThrough inlined: a steady send's settle makes no closure.
  let value: unknown;
  try {
    value = settled.committed(result);
  } catch (thrown) {
    append.reject(thrown);
    return;
  }
  append.resolve(value);
};

/**
 * The embedded default store: one SQLite file in WAL mode.
 *
 * Durability: `synchronous = FULL`. In WAL mode NORMAL only syncs at checkpoints, so a power cut
 * can lose commits that append already reported; FULL syncs the WAL on every commit, which is
 * what "an append is durable when it returns" requires.
 */
export class SqliteEventStore implements EventStore {
  private readonly appended = new AppendSignal();
  private closed = false;
  private readonly statements;
  private pending: PendingAppend[] = [];
  /** `next-turn`: the turn's end commits the pending appends; `after-unit`: they wait for the unit holding the connection. */
  private commitDue: 'none' | 'next-turn' | 'after-unit' = 'none';
  /** An immediate is set to end this turn (endTurn): one per turn serves the group commit and the look at data_version. */
  private turnEnding = false;
  private committedGroups = 0;
  /** Stream heads this connection committed or started a read from, trusted while no other connection writes. */
  private readonly heads = new StreamHeads();
  /**
   * The chain's digest of the last event this connection committed to a stream, by revision, so the
   * next append resumes the chain instead of reading its predecessor back, and the end the
   * transaction under way planned for it. Used only when the revision is the one an append follows
   * (appends never rewrite a revision); forgotten with the heads when another connection commits.
   */
  private readonly chainEnds = new KeptChainEnds();
  private readonly participants = new Set<CommitParticipant>();
  private dataVersion: bigint;
  /** processCommits when `data_version` was last read in this turn of the event loop; undefined once the turn is over. */
  private versionSeenAt: number | undefined;
  private maxKeptStagedBytes: number | undefined;
  private useWriterThread = false;
  private busyTimeoutMs = 30_000;
  private maxBufferedUnitBytes: number | undefined;
  /** The connection writes a file it created with a rollback journal; `close` turns the file to WAL. */
  private bulkLoad = false;
  /** The unit that holds this connection in its transaction, if any: readers and group commits wait for it. */
  private readonly hold = new ConnectionHold();
  private writerThread: WriterThread | undefined;
  private writerThreadStarted: (() => void) | undefined;
  private readonly chain: ChainCursor;
  private readonly writeInSavepoint: Database.Transaction<(append: PendingAppend) => void>;
  /** One append's rows, in a savepoint or beside a group's: a refused row undoes only its statement. */
  private readonly inserts: EventInserts;
  /** A group's rows in one statement: a refused row ends the transaction, which is then redone append by append. */
  private readonly groupInserts: EventInserts;
  /** The parameters of a group's insert, one array kept from group to group. */
  private readonly groupRows: GroupRows;

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
    readonly schemaVersion: number,
    private readonly pollIntervalMs: number,
    private readonly clock: () => Date,
    private readonly maxGroupEvents: number,
    /** Opened by `openReadOnly`: appends throw StoreReadOnly and nothing is ever written. */
    readonly readOnly = false,
    private readonly release: () => void = () => undefined,
  ) {
    this.chain = new ChainCursor(db, hasChainColumn(db));
    this.statements = {
      head: db.prepare<[string], { revision: number | bigint; position: number | bigint }>(
        'SELECT revision, position FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
      ),
      findId: db.prepare<[string], { stream_name: string; revision: number | bigint; position: number | bigint }>(
        'SELECT stream_name, revision, position FROM events WHERE event_id = ?',
      ),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      forwards: db.prepare<[string, number | bigint, number | bigint, number], EventRow>(
        'SELECT * FROM events WHERE stream_name = ? AND revision >= ? AND revision <= ? ORDER BY revision ASC LIMIT ?',
      ),
      backwards: db.prepare<[string, number | bigint, number], EventRow>(
        'SELECT * FROM events WHERE stream_name = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
      ),
      allAfter: db.prepare<[number | bigint, number], EventRow>(
        'SELECT * FROM events WHERE position > ? ORDER BY position ASC LIMIT ?',
      ),
      headThrough: db.prepare<[string, bigint], { revision: number | bigint; position: number | bigint }>(
        'SELECT revision, position FROM events WHERE stream_name = ? AND position <= ? ORDER BY revision DESC LIMIT 1',
      ),
      allAfterThrough: db.prepare<[number | bigint, bigint, number], EventRow>(
        'SELECT * FROM events WHERE position > ? AND position <= ? ORDER BY position ASC LIMIT ?',
      ),
      lastPosition: db.prepare<[], { position: number | bigint | null }>(
        'SELECT MAX(position) AS position FROM events',
      ),
      dataVersion: db.prepare<[], bigint>('PRAGMA data_version').pluck(),
    };
    this.dataVersion = this.statements.dataVersion.get() as bigint;
    this.inserts = new EventInserts(db, this.chain.chained);
    this.groupInserts = new EventInserts(db, this.chain.chained, 'rollback');
    this.groupRows = new GroupRows(this.chain.chained);
    // Called inside the group's transaction, better-sqlite3 runs it as a savepoint.
    this.writeInSavepoint = db.transaction((append: PendingAppend) => this.writeAppend(append));
  }

  /**
   * Open a store for writing. A missing file is created whole (see createStoreFile); an existing
   * one must be a teamlog store: an empty file, a file that is not SQLite, another program's
   * database or a newer schema is refused before anything is written. An older schema is migrated.
   */
  static open(file: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
    const migrations = options.migrations ?? eventStoreMigrations;
    const known = knownVersion(migrations);
    let created = false;
    if (file !== ':memory:') {
      if (!existsSync(file)) {
        created = createStoreFile(file, (db) => {
          db.pragma('journal_mode = WAL');
          registerChainFunctions(db);
          applyMigrations(db, migrations, file);
        });
      }
      assertStoreFileShape(file);
    }
    const writerThread = options.writerThread === true && file !== ':memory:';
    const db = new Database(file, { fileMustExist: file !== ':memory:' });
    db.defaultSafeIntegers(true);
    try {
      db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 30_000}`);
      if (file !== ':memory:') assertNotNewer(file, storeSchemaVersion(db, file), known);
      const bulkLoad = created && options.bulkLoadWhenCreated === true && !writerThread && rollbackJournal(db);
      if (file !== ':memory:' && !bulkLoad) db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      registerChainFunctions(db);
      const schemaVersion = applyMigrations(db, migrations, file);
      const store = new SqliteEventStore(
        db,
        file,
        schemaVersion,
        options.pollIntervalMs ?? 50,
        options.clock ?? (() => new Date()),
        options.maxGroupEvents ?? 10_000,
      );
      store.maxKeptStagedBytes = options.maxKeptStagedBytes;
      store.useWriterThread = writerThread;
      store.writerThreadStarted = options.writerThreadStarted;
      store.bulkLoad = bulkLoad;
      store.busyTimeoutMs = options.busyTimeoutMs ?? 30_000;
      store.maxBufferedUnitBytes = options.maxBufferedUnitBytes;
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Open a store only to read it: no migration, no journal-mode change, no file created; works on
   * a file or directory the user cannot write. Refuses what `open` refuses, and an older schema
   * (StoreNeedsUpgrade: only a command that writes upgrades it).
   */
  static openReadOnly(file: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
    assertStoreFileShape(file);
    const known = knownVersion(options.migrations ?? eventStoreMigrations);
    const { db, release } = openReadOnly(file, options.busyTimeoutMs ?? 30_000);
    try {
      db.defaultSafeIntegers(true);
      const version = storeSchemaVersion(db, file);
      assertNotNewer(file, version, known);
      if (version < known)
        throw new SqliteStoreError({ code: 'StoreNeedsUpgrade', file, fileVersion: version, knownVersion: known });
      return new SqliteEventStore(
        db,
        file,
        version,
        options.pollIntervalMs ?? 50,
        options.clock ?? (() => new Date()),
        options.maxGroupEvents ?? 10_000,
        true,
        release,
      );
    } catch (error) {
      db.close();
      release();
      throw error;
    }
  }

  /** The raw connection, for projections that keep their tables in the same file. */
  get database(): Database.Database {
    this.assertOpen();
    return this.db;
  }

  appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    return this.queueAppend(stream, events, options, undefined) as Promise<AppendResult>;
  }

  appendToStreamSettled<R>(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions,
    settled: AppendSettled<R>,
  ): Promise<R> {
    return this.queueAppend(stream, events, options, settled) as Promise<R>;
  }

  /** One pending append and its one promise; settled by `settle` after the group's commit. */
  private queueAppend(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions,
    settled: AppendSettled<unknown> | undefined,
  ): Promise<unknown> {
    let encoded: EncodedEvent[];
    try {
      this.assertWritable();
      assertValidBatch(stream, events);
      encoded = encodedEvents(events);
    } catch (error) {
      // Refused before it was queued: nothing of it is written.
      if (settled === undefined) return Promise.reject(error);
      try {
        return Promise.resolve(settled.failed(error));
      } catch (thrown) {
        return Promise.reject(thrown);
      }
    }
    const expectedRevision = options.expectedRevision ?? 'any';
    const append = new PendingAppend(stream, events, encoded, expectedRevision, settled);
    this.pending.push(append);
    this.scheduleCommit();
    return append.promise;
  }

  /**
   * A unit whose rows are written once, into `events` (sqlite-written-unit.ts); with the opt-in
   * writer thread, written there with the views' rows (sqlite-writer-unit.ts).
   */
  stageAppends(options: StageAppendsOptions = {}): StagedAppends {
    this.assertWritable();
    const host = {
      db: this.db,
      chain: this.chain,
      clock: this.clock,
      assertOpen: () => this.assertOpen(),
      hasParticipants: () => this.participants.size > 0,
      foldAheadParticipants: () => this.foldAheadParticipants(),
      ...(this.maxKeptStagedBytes === undefined ? {} : { maxKeptBytes: this.maxKeptStagedBytes }),
      prepareParticipants: (events: readonly RecordedEvent[]) => this.prepareParticipants(events),
      eventsAfter: (position: bigint, maxCount: number) =>
        this.statements.allAfter.all(position, maxCount).map((row) => this.toRecorded(row)),
      aborted: () => this.participants.forEach((participant) => participant.aborted()),
      committed: (results: readonly StagedStreamResult[]) => {
        processCommits += 1;
        if (results.some((result) => result.events > 0))
          this.participants.forEach((participant) => participant.committed());
        this.appended.notify();
        this.trustHeads();
        for (const result of results)
          this.heads.set(result.streamName, result.nextExpectedRevision < 0n ? undefined : result.nextExpectedRevision);
      },
    };
    if (this.useWriterThread)
      return sqliteWriterUnit(
        {
          ...host,
          hold: this.hold,
          writer: this.startedWriterThread(),
          chained: this.chain.chained,
          recorded: (row: unknown) => this.toRecorded(row as EventRow),
          ...(this.maxBufferedUnitBytes === undefined ? {} : { maxBufferedBytes: this.maxBufferedUnitBytes }),
        },
        options,
      );
    return sqliteWrittenUnit(
      {
        ...host,
        hold: this.hold,
        ...(this.maxBufferedUnitBytes === undefined ? {} : { maxBufferedBytes: this.maxBufferedUnitBytes }),
      },
      options,
    );
  }

  /** The writer thread, started at the first unit that needs it. */
  private startedWriterThread(): WriterThread {
    if (this.writerThread !== undefined) return this.writerThread;
    this.writerThread = new WriterThread({
      file: this.file,
      busyTimeoutMs: this.busyTimeoutMs,
      cacheSize: Number(this.db.pragma('cache_size', { simple: true })),
    });
    this.writerThreadStarted?.();
    return this.writerThread;
  }

  private scheduleCommit(): void {
    if (this.commitDue !== 'none') return;
    this.commitDue = 'next-turn';
    this.endTurnSoon();
  }

  /**
   * One immediate ends the turn for both that need it: the look at data_version stops serving
   * knownRevision, then the appends requested in the turn commit. A steady single sender's commit
   * looks at data_version and its next append asks for a commit in the same turn, so one hop, not
   * two, per send.
   */
  private endTurnSoon(): void {
    if (this.turnEnding) return;
    this.turnEnding = true;
    setImmediate(this.endTurn);
  }

  private readonly endTurn = (): void => {
    this.turnEnding = false;
    this.versionSeenAt = undefined;
    if (this.commitDue === 'next-turn') this.commitPending();
  };

  /** The oldest pending appends up to maxGroupEvents events (at least one append), in request order. */
  private takeGroup(): PendingAppend[] {
    let events = 0;
    let count = 0;
    while (count < this.pending.length) {
      const next = (this.pending[count] as PendingAppend).events.length;
      if (count > 0 && events + next > this.maxGroupEvents) break;
      events += next;
      count += 1;
    }
    return this.pending.splice(0, count);
  }

  /** Transactions committed by this connection's appends (a group commit counts once). */
  get appendTransactions(): number {
    return this.committedGroups;
  }

  /**
   * Group commit: the appends requested during one turn of the event loop are written in one
   * durable transaction (see writeGroup), and one append's failure (a wrong expected revision, a
   * duplicate id) fails only that append. Every caller's promise settles after the COMMIT, so an
   * append is still durable when it returns; concurrent writers share the fsync.
   */
  private commitPending(): void {
    // A unit holds the connection in its transaction: the group waits for its end (close rolls it back).
    if (this.hold.held && !this.closed) {
      // Only endTurn and this wait call it: endTurn does not while it waits, so it waits once.
      this.commitDue = 'after-unit';
      void this.hold.settled().then(() => this.commitPending());
      return;
    }
    this.commitDue = 'none';
    const group = this.takeGroup();
    if (this.pending.length > 0) this.scheduleCommit();
    if (group.length === 0) return;
    if (this.closed) {
      for (const append of group) fail(append, storeClosed());
      return;
    }
    try {
      this.writeGroup(group);
      this.committedGroups += 1;
      processCommits += 1;
      // The transaction looked at data_version in this turn (under the write lock): knownRevision
      // answers from that look for the rest of the turn, as from its own.
      this.sawVersionThisTurn();
    } catch (error) {
      this.participants.forEach((participant) => participant.aborted());
      for (const append of group) fail(append, this.explainConstraint(error, append.stream, append.events));
      return;
    }
    this.participants.forEach((participant) => participant.committed());
    if (group.some((append) => !append.failed)) this.appended.notify();
    // No look at data_version here: the transaction looked under the write lock, and another
    // connection's commit after ours is seen by the next knownRevision (processCommits moved).
    for (const append of group) settle(append, this.heads);
  }

  /**
   * One durable transaction for the group. At first its appends are checked in memory against the
   * known heads and their rows go in as one multi-row insert (no lookup: a retried or duplicate id
   * is found when the unique index refuses the insert). When the index refuses it, that attempt's
   * transaction is rolled back (by the insert itself, so SQLite keeps no statement journal to undo
   * it alone) and the group is written again one append at a time, each in its own savepoint, so
   * the conflict fails only its own append.
   */
  private writeGroup(group: readonly PendingAppend[]): void {
    const atOnce = (): boolean =>
      group.length === 1 ? this.writeOneAtOnce(group[0] as PendingAppend) : this.writeGroupAtOnce(group);
    if (!this.inTransaction(group, atOnce)) this.inTransaction(group, () => this.writeGroupOneByOne(group));
  }

  /**
   * Run `write` in an IMMEDIATE transaction with the participants; false from `write` rolls it back
   * (and is returned). `write` settles the group's appends in their fields (PendingAppend).
   */
  private inTransaction(group: readonly PendingAppend[], write: () => boolean): boolean {
    this.statements.begin.run();
    this.chainEnds.begin();
    try {
      // The write lock is held: heads trusted now stay exact until the commit.
      this.trustHeads();
      if (!write()) {
        // A group's insert that a unique index refused has already ended the transaction.
        if (this.db.inTransaction) this.statements.rollback.run();
        return false;
      }
      // Participants write their state in this same transaction; a throw rolls the group back.
      if (this.participants.size > 0)
        this.prepareParticipants(group.flatMap((append) => (append.failed ? [] : append.recorded)));
      this.statements.commit.run();
      this.chainEnds.commit();
      return true;
    } catch (error) {
      if (this.db.inTransaction) this.statements.rollback.run();
      throw error;
    }
  }

  private writeGroupOneByOne(group: readonly PendingAppend[]): boolean {
    for (const append of group) {
      try {
        this.writeInSavepoint(append);
      } catch (error) {
        // SQLite rolled the whole transaction back (an I/O error, say): the group fails.
        if (!this.db.inTransaction) throw error;
        failWith(append, this.explainConstraint(error, append.stream, append.events));
      }
    }
    return true;
  }

  /**
   * The group's rows in one statement, or undefined when a unique index refused them (the insert's
   * `OR ROLLBACK` ended the attempt's transaction). An append that writes nothing (no events, or a failed expected revision,
   * which may be a retry) is settled against the stored rows, so the rows planned before it go in first.
   */
  private writeGroupAtOnce(group: readonly PendingAppend[]): boolean {
    const recordedAt = this.clock().getTime();
    const rows = this.groupRows;
    // The appends planned since the last insert: group[from] up to the one being planned (one that
    // cannot be planned has the rows before it inserted first).
    let from = 0;
    try {
      for (let index = 0; index < group.length; index += 1) {
        const append = group[index] as PendingAppend;
        const { stream, encoded, expectedRevision } = append;
        // A stream planned earlier in this group goes on from there (its rows are not inserted yet).
        const end = this.chainEnds.entry(stream);
        const planned = this.chainEnds.isPlanned(end);
        const last = planned ? end.plannedRevision : this.headRevision(stream);
        if (encoded.length === 0 || !meetsExpectedRevision(expectedRevision, last)) {
          if (!this.insertPlanned(group, from, index, recordedAt)) return false;
          from = index + 1;
          try {
            this.writeAppend(append);
          } catch (error) {
            // SQLite rolled the whole transaction back (an I/O error, say): the group fails.
            if (!this.db.inTransaction) throw error;
            failWith(append, error);
          }
          continue;
        }
        const first = last === undefined ? 0n : last + 1n;
        append.first = first;
        append.row = rows.rows;
        if (planned) this.chain.resume(end.plannedDigest);
        else this.seekChain(stream, end, first);
        // The last revision is the first for a one-event append (a send's): no BigInt arithmetic.
        let revision = first;
        for (let offset = 0; offset < encoded.length; offset += 1) {
          if (offset > 0) revision += 1n;
          const event = encoded[offset] as EncodedEvent;
          rows.push(stream, revision, event, recordedAt, this.digestOf(event));
        }
        this.planChainEnd(append, end, revision);
      }
      return this.insertPlanned(group, from, group.length, recordedAt);
    } finally {
      // Also when planning threw: no row of this group may reach the next one's insert.
      rows.clear();
    }
  }

  /**
   * writeGroupAtOnce for a group of one append of one event that meets its expected revision (a
   * single sender's steady send): the same row, digest and insert, without a group's plan.
   */
  private writeOneAtOnce(append: PendingAppend): boolean {
    const { stream, encoded } = append;
    const last = this.headRevision(stream);
    const event = encoded[0];
    if (encoded.length !== 1 || event === undefined || !meetsExpectedRevision(append.expectedRevision, last))
      return this.writeGroupAtOnce([append]);
    const recordedAt = this.clock().getTime();
    const revision = last === undefined ? 0n : last + 1n;
    const end = this.chainEnds.entry(stream);
    this.seekChain(stream, end, revision);
    let position: bigint;
    try {
      position = this.groupInserts.runOne(stream, revision, event, recordedAt, this.digestOf(event));
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
    append.first = revision;
    append.row = 0;
    this.planChainEnd(append, end, revision);
    append.recorded =
      this.participants.size > 0
        ? [this.recordedOf(stream, revision, position, append.events[0] as EventToAppend, recordedAt)]
        : noRecorded;
    append.planned(Number(position));
    return true;
  }

  /** The append's rows end the stream's chain at `revision` with the cursor's digest, for later appends of the group and, once committed, of this connection. */
  private planChainEnd(append: PendingAppend, end: KeptChainEnd | undefined, revision: bigint): void {
    append.revision = revision;
    this.chainEnds.plan(append.stream, end, revision, this.chain.current);
  }

  /** Insert the planned appends' rows (`group[from]` up to `group[to]`, not included) and settle them in their fields; false when a unique index refused them (the transaction is rolled back). */
  private insertPlanned(group: readonly PendingAppend[], from: number, to: number, recordedAt: number): boolean {
    const { rows } = this.groupRows;
    if (rows === 0) return true;
    let lastPosition: bigint;
    try {
      lastPosition = this.groupInserts.run(rows, this.groupRows.bound());
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    } finally {
      this.groupRows.clear();
    }
    // Positions are rowids, far below 2^53: a number per row, no BigInt per append (PendingAppend).
    const firstPosition = Number(lastPosition) - rows + 1;
    const keep = this.participants.size > 0;
    for (let index = from; index < to; index += 1) {
      const append = group[index] as PendingAppend;
      const { first, row } = append;
      const count = append.encoded.length;
      // The participants fold the objects the writer handed in: nothing is parsed back.
      append.recorded = keep
        ? append.events.map((event, offset) =>
            this.recordedOf(
              append.stream,
              first + BigInt(offset),
              BigInt(firstPosition + row + offset),
              event,
              recordedAt,
            ),
          )
        : noRecorded;
      append.planned(firstPosition + row + count - 1);
    }
    return true;
  }

  /** The stream's last revision: known to this connection, or read from the end of its index. */
  private headRevision(stream: StreamName): bigint | undefined {
    const known = this.heads.get(stream);
    if (known !== undefined) return known.revision;
    const head = this.statements.head.get(stream);
    const last = head === undefined ? undefined : BigInt(head.revision);
    this.heads.set(stream, last);
    return last;
  }

  /** One append against the stored rows, settled in its fields: a retry gets the original result back, a conflict throws. */
  private writeAppend(append: PendingAppend): void {
    const { stream, events, encoded, expectedRevision } = append;
    append.failed = false;
    append.recorded = noRecorded;
    const retried = this.resolveRetry(stream, events);
    if (retried !== undefined) {
      append.result = retried;
      return;
    }
    const head = this.statements.head.get(stream);
    const last = head === undefined ? undefined : BigInt(head.revision);
    assertExpectedRevision(stream, expectedRevision, last);
    if (events.length === 0) {
      append.result = {
        nextExpectedRevision: last ?? -1n,
        position: toPosition(head?.position ?? this.statements.lastPosition.get()?.position ?? 0),
      };
      return;
    }
    const recordedAt = this.clock().getTime();
    const first = last === undefined ? 0n : last + 1n;
    const values: unknown[] = [];
    const end = this.chainEnds.entry(stream);
    this.seekChain(stream, end, first);
    encoded.forEach((event, offset) =>
      pushEventRow(values, stream, first + BigInt(offset), event, recordedAt, this.digestOf(event)),
    );
    const lastPosition = this.inserts.run(encoded.length, values);
    this.planChainEnd(append, end, first + BigInt(encoded.length) - 1n);
    const firstPosition = lastPosition - BigInt(encoded.length) + 1n;
    if (this.participants.size > 0)
      append.recorded = events.map((event, offset) =>
        this.recordedOf(stream, first + BigInt(offset), firstPosition + BigInt(offset), event, recordedAt),
      );
    append.result = { nextExpectedRevision: append.revision, position: toPosition(lastPosition) };
  }

  /** Put the chain cursor before the stream's event at `revision`: from the kept chain end when it is the predecessor, else read back. */
  private seekChain(stream: StreamName, end: KeptChainEnd | undefined, revision: bigint): void {
    if (this.chainEnds.precedes(end, revision)) this.chain.resume(end.digest);
    else this.chain.seek(stream, revision);
  }

  /** The chain's digest of the next event of the stream the cursor is on, over the exact text inserted; none on an unchained store. */
  private digestOf(event: EncodedEvent): string | undefined {
    return this.chain.chained ? this.chain.next(event.type, event.data, event.metadata) : undefined;
  }

  private recordedOf(
    stream: StreamName,
    revision: bigint,
    position: bigint,
    event: EventToAppend,
    recordedAt: number,
  ): RecordedEvent {
    return {
      streamName: stream,
      revision,
      position: toPosition(position),
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      recordedAt: new Date(recordedAt),
    };
  }

  /** The participants, when every one can fold a unit as it is staged and holds every committed event. */
  private foldAheadParticipants(): { participants: readonly CommitParticipant[]; last: bigint } | undefined {
    // Another unit folds ahead and writes in place: the last position is not a committed one.
    if (this.hold.held) return undefined;
    const participants = [...this.participants];
    if (participants.some((participant) => participant.stage === undefined)) return undefined;
    const last = BigInt(this.statements.lastPosition.get()?.position ?? 0);
    const current = participants.every((participant) => (participant.checkpoint?.commit ?? 0n) === last);
    return current ? { participants, last } : undefined;
  }

  participate(participant: CommitParticipant): Detach {
    this.assertOpen();
    this.participants.add(participant);
    return () => {
      this.participants.delete(participant);
    };
  }

  /**
   * Inside the group's transaction (this connection holds the write lock, so nothing else commits
   * meanwhile): each participant gets the events other connections committed after its checkpoint,
   * read here (rarely any), then this group's.
   */
  private prepareParticipants(recorded: readonly RecordedEvent[]): void {
    const first = recorded[0]?.position.commit;
    for (const participant of this.participants) {
      const after = participant.checkpoint?.commit ?? 0n;
      const behind = first === undefined || first > after + 1n ? this.eventsBetween(after, first) : [];
      participant.prepare(behind.length === 0 ? recorded : [...behind, ...recorded]);
    }
  }

  /** Events after `after` and before `before` (or to the end), in order. */
  private eventsBetween(after: bigint, before: bigint | undefined): RecordedEvent[] {
    const events: RecordedEvent[] = [];
    for (let from = after; ; ) {
      const rows = this.statements.allAfter.all(from, pageSize);
      for (const row of rows) {
        if (before !== undefined && BigInt(row.position) >= before) return events;
        events.push(this.toRecorded(row));
      }
      if (rows.length < pageSize) return events;
      from = BigInt((rows[rows.length - 1] as EventRow).position);
    }
  }

  async *readStream(stream: StreamName, options: ReadStreamOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    // The head and the trust in it are taken in one synchronous step: later commits of this
    // connection only move it forwards, and another connection's commit is seen by trustHeads.
    this.trustHeads();
    // Revisions up to the committed head are committed rows, also while a unit holds the connection.
    const head = this.committedHead(stream);
    this.heads.set(stream, head === undefined ? undefined : BigInt(head.revision));
    if (head === undefined) throw streamNotFound(stream);
    const last = BigInt(head.revision);
    const pages = streamPages<EventRow>(
      last,
      options,
      pageSize,
      (row) => BigInt(row.revision),
      (direction, from, to, count) =>
        direction === 'forwards'
          ? this.statements.forwards.all(stream, from, to, count)
          : this.statements.backwards.all(stream, from, count),
    );
    for await (const rows of pages) for (const row of rows) yield this.toRecorded(row);
  }

  async *readAll(options: ReadAllOptions = {}): AsyncGenerator<RecordedEvent> {
    this.assertOpen();
    const from = options.fromPosition ?? 'start';
    let after: bigint = from === 'start' ? 0n : from.commit;
    let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
    while (remaining > 0) {
      this.assertOpen();
      const rows = this.committedAfter(after, Math.min(pageSize, remaining));
      for (const row of rows) yield this.toRecorded(row);
      if (rows.length < Math.min(pageSize, remaining)) return;
      remaining -= rows.length;
      after = BigInt((rows[rows.length - 1] as EventRow).position);
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    const from = options.fromPosition ?? 'start';
    const lastPosition = this.statements.lastPosition.get()?.position ?? null;
    const start =
      from === 'start'
        ? undefined
        : from === 'end'
          ? lastPosition === null
            ? undefined
            : toPosition(lastPosition)
          : from;
    return catchUpSubscription(
      {
        readAfter: async (after, maxCount) => {
          if (this.closed) return [];
          return this.committedAfter(after?.commit ?? 0n, maxCount).map((row) => this.toRecorded(row));
        },
        appendCount: () => this.appended.count,
        waitForAppend: (seen, signal) => this.appended.wait(seen, signal, this.pollIntervalMs),
      },
      start,
    );
  }

  readonly knownRevisionCovers = 'immediate';

  /**
   * Exact as of this turn of the event loop: another process's commit is seen from the next turn
   * (or the next read or append of this store, which look again). Appends keep their
   * expected-revision check, so an answer a turn old only costs a retry.
   */
  knownRevision(stream: StreamName): KnownRevision | undefined {
    if (this.closed) return undefined;
    if (this.versionSeenAt !== processCommits) {
      this.sawVersionThisTurn();
      this.trustHeads();
    }
    return this.heads.get(stream);
  }

  /** `data_version` was read in this turn, after every commit this process has made so far. */
  private sawVersionThisTurn(): void {
    if (this.versionSeenAt === undefined) this.endTurnSoon();
    this.versionSeenAt = processCommits;
  }

  /** Forget every head when another connection (process) has committed since the last look. */
  private trustHeads(): void {
    const version = this.statements.dataVersion.get() as bigint;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.heads.clear();
    this.chainEnds.clear();
  }

  async streamRevision(stream: StreamName): Promise<bigint | undefined> {
    this.assertOpen();
    const head = this.committedHead(stream);
    return head === undefined ? undefined : BigInt(head.revision);
  }

  /** Every stream with its last revision, in name order: one seek of the (stream, revision) index per stream. */
  listStreams(): Array<{ readonly streamName: StreamName; readonly lastRevision: bigint }> {
    this.assertOpen();
    return this.db
      .prepare<[], { stream_name: string; last_revision: number | bigint }>(
        `WITH RECURSIVE names(name) AS (
           SELECT MIN(stream_name) FROM events
           UNION ALL SELECT (SELECT MIN(stream_name) FROM events WHERE stream_name > names.name) FROM names WHERE names.name IS NOT NULL
         )
         SELECT name AS stream_name, (SELECT MAX(revision) FROM events WHERE stream_name = name) AS last_revision FROM names WHERE name IS NOT NULL`,
      )
      .all()
      .map((row) => ({ streamName: row.stream_name as StreamName, lastRevision: BigInt(row.last_revision) }));
  }

  /** Appends already requested are committed first; later ones fail with StoreClosed. */
  async close(): Promise<void> {
    if (this.closed) return;
    // A unit still holding the connection is rolled back (a close ends it uncommitted either way).
    if (this.hold.held) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.hold.breakOff();
    }
    while (this.pending.length > 0) this.commitPending();
    this.closed = true;
    this.appended.notify();
    if (this.bulkLoad) walAfterBulkLoad(this.db);
    this.db.close();
    this.release();
    await this.writerThread?.close();
  }

  private resolveRetry(stream: StreamName, events: readonly EventToAppend[]): AppendResult | undefined {
    const first = events[0];
    if (first === undefined || this.statements.findId.get(first.id) === undefined) return undefined;
    const stored = new Map<EventId, StoredIdentity>();
    for (const event of events) {
      const row = this.statements.findId.get(event.id);
      if (row !== undefined) {
        stored.set(event.id, {
          streamName: row.stream_name as StreamName,
          revision: BigInt(row.revision),
          position: toPosition(row.position),
        });
      }
    }
    return resolveRetry(stream, events, stored);
  }

  /** A unique-id violation during insert means part of the batch was stored before: say which id. */
  private explainConstraint(error: unknown, stream: StreamName, events: readonly EventToAppend[]): unknown {
    if (!isUniqueViolation(error)) return error;
    const clash = events.find((event) => this.statements.findId.get(event.id) !== undefined);
    return clash === undefined
      ? error
      : duplicateEventId(clash.id, stream, 'the id is already stored; a retry must repeat the original batch exactly');
  }

  /**
   * A stream's last committed event. While a unit holds this connection in its transaction
   * (ConnectionHold), its rows are visible here uncommitted: reads stop at the position it started
   * after, so they answer what every other connection sees, and never wait for the unit.
   */
  private committedHead(stream: StreamName): { revision: number | bigint; position: number | bigint } | undefined {
    const through = this.hold.committedThrough;
    return through === undefined ? this.statements.head.get(stream) : this.statements.headThrough.get(stream, through);
  }

  /** Up to `count` committed events after a position (see committedHead). */
  private committedAfter(after: number | bigint, count: number): EventRow[] {
    const through = this.hold.committedThrough;
    return through === undefined
      ? this.statements.allAfter.all(after, count)
      : this.statements.allAfterThrough.all(after, through, count);
  }

  /** Every stored event's bytes and digest, stream by stream (the audit's chain check). */
  async *readStoredLinks(): AsyncGenerator<StoredLink> {
    this.assertOpen();
    await this.hold.settled();
    this.assertOpen();
    if (!this.chain.chained) return;
    yield* storedLinks(this.db);
  }

  private toRecorded(row: EventRow): RecordedEvent {
    return {
      streamName: row.stream_name as StreamName,
      revision: BigInt(row.revision),
      position: toPosition(row.position),
      id: row.event_id as EventId,
      type: row.type,
      data: JSON.parse(row.data) as JsonValue,
      metadata: row.metadata === null ? undefined : (JSON.parse(row.metadata) as JsonValue),
      recordedAt: new Date(Number(row.recorded_at)),
    };
  }

  private assertOpen(): void {
    if (this.closed) throw storeClosed();
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.readOnly) throw new SqliteStoreError({ code: 'StoreReadOnly', file: this.file });
  }
}
