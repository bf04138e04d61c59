import type Database from 'better-sqlite3';
import type { ConnectionHold } from './connection-hold';
import type { ChainCursor } from './sqlite-event-chain';
import { InsertBindings, boundInteger } from './insert-bindings';
import { eventsInsertStatements } from './events-insert-statements';
import { runBound } from './run-bound';
import { recordedFromKept } from './kept-unit-events';
import { explainUnitIdClash } from './unit-id-clash';
import { FoldAhead, type FoldAheadHost } from './fold-ahead';
import type { StagedRow } from './staged-row-buffer';
import {
  type EventDigest,
  type EventToAppend,
  type GlobalPosition,
  type RecordedEvent,
  type StageAppendsOptions,
  type StagedAppends,
  type StagedStreamResult,
  StagingLedger,
  type StreamName,
  assertExpectedRevision,
  assertValidBatch,
} from '@teamlog/store';

/** What a unit needs from the store that opened it. */
export interface WrittenUnitHost extends FoldAheadHost {
  readonly db: Database.Database;
  /** The store's hash-chain cursor: each row's digest is computed as the row is written. */
  readonly chain: ChainCursor;
  readonly clock: () => Date;
  readonly assertOpen: () => void;
  /** Which unit holds the connection in its transaction (one at a time). */
  readonly hold: ConnectionHold;
  /** Whether commit participants take part (inline projections): they get the unit's events inside its transaction. */
  readonly hasParticipants: () => boolean;
  /** Inside the unit's transaction, one page of the unit's events after another, in `$all` order; a throw rolls the unit back. */
  readonly prepareParticipants: (events: readonly RecordedEvent[]) => void;
  /** Events of the store after a position, in order (to hand a large unit's events back page by page). */
  readonly eventsAfter: (position: bigint, maxCount: number) => RecordedEvent[];
  /** The commit is durable (or failed after the participants were prepared). */
  readonly committed: (results: readonly StagedStreamResult[]) => void;
  /** Encoded bytes of the events whose objects the unit keeps for its participants (default 64 MiB). */
  readonly maxKeptBytes?: number;
  /** Encoded bytes a unit keeps in memory before it takes the write lock and writes in place (default 8 MiB). */
  readonly maxBufferedBytes?: number;
}

const maxKeptBytes = 64 * 1024 * 1024;
/*
 * Below this a unit keeps its rows in memory and writes them at the commit, so a small import never
 * holds the file's write lock while it reads; past it the unit takes the lock and writes in place.
 */
const maxBufferedBytes = 8 * 1024 * 1024;
const participantPage = 2_000;
/** Rows per multi-row insert (each statement prepared once per row count). */
const rowsPerInsert = 64;

/*
 * Events per staged batch when the participants fold the unit as it is staged: each batch is folded
 * and written (or kept as rows) at once, so a small one's objects die in the young generation
 * instead of being promoted and collected by a full collection (the importer's chunk of 2000
 * outlives a scavenge; docs/historical-logs.md#memory). One whole multi-row insert: 256 were
 * measured too, with about 10% more scavenges.
 */
const foldedBatchEvents = rowsPerInsert;

const toPosition = (position: bigint): GlobalPosition => ({ commit: position, prepare: position });

/** One staged batch while the unit still keeps its rows in memory. */
interface BufferedBatch {
  readonly stream: StreamName;
  readonly rows: readonly StagedRow[];
}

/** What the unit wrote of one stream: its first revision, how many rows, and where its chain ends. */
interface WrittenStream {
  readonly base: bigint;
  count: number;
  digest: EventDigest | undefined;
}

/**
 * A unit of appends on a SQLite store's connection (see StagedAppends in @teamlog/store) whose rows
 * are written once, into `events` (docs/rules.md#one-pass-import). A small unit keeps its encoded
 * rows in memory and writes them in one IMMEDIATE transaction at the commit. A unit past
 * `maxBufferedBytes` takes the write lock then, writes what it kept and every later batch in place,
 * chained as written, and holds that transaction until its commit or abort: its rows stay invisible
 * to every other connection, an abort (a line rejected at the end of the file) rolls them back, and
 * a killed process leaves them in no commit. Meanwhile the store's own readers on this connection
 * read what is committed, and its appends wait for the unit's end (ConnectionHold).
 */
export const sqliteWrittenUnit = (host: WrittenUnitHost, options: StageAppendsOptions = {}): StagedAppends => {
  const { db, hold } = host;
  host.assertOpen();
  const owner = {};
  const ledger = new StagingLedger();
  const chained = host.chain.chained;
  const insertOf = eventsInsertStatements(db, chained);
  const head = db.prepare<[string], { revision: number | bigint; position: number | bigint }>(
    'SELECT revision, position FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
  );
  const lastPosition = db.prepare<[], { position: number | bigint | null }>(
    'SELECT MAX(position) AS position FROM events',
  );
  const findId = db.prepare<[string], { stream_name: string; position: number | bigint }>(
    'SELECT stream_name, position FROM events WHERE event_id = ?',
  );
  const headRevision = (stream: StreamName): bigint | undefined => {
    const row = head.get(stream);
    return row === undefined ? undefined : BigInt(row.revision);
  };

  /** The staged objects by stream, while participants take part and the unit is small enough. */
  let kept: Map<StreamName, EventToAppend[]> | undefined =
    host.hasParticipants() && options.callerHoldsEvents === true ? new Map() : undefined;
  let keptBytes = 0;
  let buffered: BufferedBatch[] = [];
  let bufferedBytes = 0;
  /** Whether this unit holds the connection in its open transaction. */
  let held = false;
  /** The store's last position when the unit took the write lock: its rows come after it. */
  let before = 0n;
  /** The unit's streams in the order of their first batch, with what is written of each. */
  const written = new Map<StreamName, WrittenStream>();
  let writtenRows = 0n;
  let recordedAt: number | undefined;
  const recordedAtNow = (): number => (recordedAt ??= host.clock().getTime());

  const ahead = new FoldAhead(host, recordedAtNow);
  /** Under the write lock: the committed head of a stream this unit has not written yet. */
  const writtenHead = (stream: StreamName): bigint | undefined => {
    const mine = written.get(stream);
    return mine === undefined ? headRevision(stream) : mine.base - 1n;
  };
  const explainClash = (error: unknown, stream: StreamName, rows: readonly StagedRow[]): unknown =>
    explainUnitIdClash(error, stream, rows, (id) => findId.get(id)?.stream_name);

  const bindings = new InsertBindings(chained ? 9 : 8);
  /** Insert rows at consecutive positions from `at`, chained from the cursor's place. */
  const insertRows = (stream: StreamName, firstRevision: bigint, at: bigint, rows: readonly StagedRow[]): void => {
    const stamp = recordedAtNow();
    const position = boundInteger(at);
    const revision = boundInteger(firstRevision);
    for (let start = 0; start < rows.length; start += rowsPerInsert) {
      const count = Math.min(rowsPerInsert, rows.length - start);
      const values = bindings.of(count);
      let slot = 0;
      for (let index = start; index < start + count; index += 1) {
        const [id, type, data, metadata] = rows[index] as StagedRow;
        values[slot++] = position(index);
        values[slot++] = stream;
        values[slot++] = revision(index);
        values[slot++] = id;
        values[slot++] = type;
        values[slot++] = data;
        values[slot++] = metadata;
        values[slot++] = stamp;
        if (chained) values[slot++] = host.chain.next(type, data, metadata);
      }
      try {
        runBound(insertOf(count), values);
      } finally {
        bindings.release(values);
      }
    }
  };
  /** Under the write lock: write one batch in place, after the stream's earlier rows. */
  const writeBatch = (stream: StreamName, rows: readonly StagedRow[]): void => {
    if (rows.length === 0) return;
    let mine = written.get(stream);
    if (mine === undefined) {
      const staged = ledger.streams.find((entry) => entry.stream === stream);
      const last = headRevision(stream);
      if (staged !== undefined) assertExpectedRevision(stream, staged.expected, last);
      mine = { base: last === undefined ? 0n : last + 1n, count: 0, digest: undefined };
      host.chain.seek(stream, mine.base);
      written.set(stream, mine);
    } else host.chain.resume(mine.digest);
    // The unit's rows stay stream after stream: a stream staged again after another goes before the later streams' rows.
    let rowsAfter = 0n;
    let passed = false;
    for (const [name, entry] of written) {
      if (passed) rowsAfter += BigInt(entry.count);
      if (name === stream) passed = true;
    }
    const at = before + writtenRows - rowsAfter + 1n;
    const shift = BigInt(rows.length);
    try {
      if (rowsAfter > 0n) {
        // Two steps through negative positions, so no row meets another's position on the way.
        db.prepare('UPDATE events SET position = -position - ? WHERE position >= ?').run(shift, at);
        db.prepare('UPDATE events SET position = -position WHERE position < 0').run();
      }
      insertRows(stream, mine.base + BigInt(mine.count), at, rows);
    } catch (error) {
      throw explainClash(error, stream, rows);
    }
    mine.count += rows.length;
    mine.digest = host.chain.current;
    writtenRows += shift;
  };

  /** Take the write lock in a transaction this unit holds until its end, and write what it kept. */
  const begin = (): void => {
    host.assertOpen();
    if (!hold.tryTake(owner) || db.inTransaction) throw new Error('the SQLite connection is in another transaction');
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      hold.release(owner);
      throw error;
    }
    held = true;
    before = BigInt(lastPosition.get()?.position ?? 0);
    hold.writesAfter(owner, before);
    // Another connection committed since the fold began: the participants start again, read back at the commit.
    if (ahead.active && !ahead.holds(before, headRevision)) ahead.stop();
    const batches = buffered;
    buffered = [];
    bufferedBytes = 0;
    for (const batch of batches) writeBatch(batch.stream, batch.rows);
  };
  /** End the held transaction (if any) without a trace. */
  const rollBack = (): void => {
    if (held && db.open && db.inTransaction) db.exec('ROLLBACK');
    held = false;
    hold.release(owner);
  };
  const drop = (): void => {
    buffered = [];
    bufferedBytes = 0;
    kept = undefined;
    rollBack();
  };

  /** Inside the transaction: the participants get the unit's events, from the kept objects or read back page by page. */
  const handToParticipants = (results: readonly StagedStreamResult[]): void => {
    if (!host.hasParticipants()) return;
    // The participants folded every event as it was staged: they only write what they hold.
    if (ahead.active) {
      host.prepareParticipants([]);
      return;
    }
    if (kept !== undefined) {
      const recorded = recordedFromKept(kept, results, new Date(recordedAtNow()));
      if (recorded.length > 0) host.prepareParticipants(recorded);
      return;
    }
    for (let after = before; ; ) {
      const page = host.eventsAfter(after, participantPage);
      if (page.length > 0) host.prepareParticipants(page);
      if (page.length < participantPage) return;
      after = (page[page.length - 1] as RecordedEvent).position.commit;
    }
  };

  /** Under the write lock, every row written: each stream's result, in staging order of the streams. */
  const results = (): StagedStreamResult[] => {
    let position = before;
    return ledger.streams.map((staged): StagedStreamResult => {
      const mine = written.get(staged.stream);
      if (mine === undefined) {
        const row = head.get(staged.stream);
        const last = row === undefined ? undefined : BigInt(row.revision);
        assertExpectedRevision(staged.stream, staged.expected, last);
        return {
          streamName: staged.stream,
          events: 0,
          nextExpectedRevision: last ?? -1n,
          position: toPosition(BigInt(row?.position ?? lastPosition.get()?.position ?? 0)),
        };
      }
      position += BigInt(mine.count);
      return {
        streamName: staged.stream,
        events: mine.count,
        nextExpectedRevision: mine.base + BigInt(mine.count) - 1n,
        position: toPosition(position),
      };
    });
  };

  return {
    stagesWhileValidating: true,
    ...(host.hasParticipants() && host.foldAheadParticipants() !== undefined ? { batchEvents: foldedBatchEvents } : {}),
    append: async (stream: StreamName, events: readonly EventToAppend[], options) => {
      host.assertOpen();
      assertValidBatch(stream, events);
      // Encoded before staging: a value JSON cannot hold fails this call and stages nothing. The
      // writer's own text of the data is kept as it is (docs/rules.md#stored-data-bytes).
      const rows = events.map(
        (event): StagedRow => [
          event.id,
          event.type,
          event.dataText ?? JSON.stringify(event.data),
          event.metadata === undefined ? null : JSON.stringify(event.metadata),
        ],
      );
      const first = ledger.streams.find((staged) => staged.stream === stream)?.events ?? 0;
      ledger.stage(stream, events.length, options);
      let bytes = 0;
      for (const row of rows) bytes += row[2].length + (row[3]?.length ?? 0);
      if (kept !== undefined) {
        const objects = kept.get(stream) ?? [];
        for (const event of events) objects.push(event);
        kept.set(stream, objects);
        keptBytes += bytes;
        if (keptBytes > (host.maxKeptBytes ?? maxKeptBytes)) kept = undefined;
      }
      try {
        // The participants fold from these batches: nothing needs keeping for the commit.
        if (host.hasParticipants() && ahead.stage(stream, first, events, held ? writtenHead : headRevision))
          kept = undefined;
        if (held) writeBatch(stream, rows);
        else {
          buffered.push({ stream, rows });
          bufferedBytes += bytes;
          // Past the budget the unit writes in place, unless another unit holds the connection (then it keeps on).
          if (bufferedBytes > (host.maxBufferedBytes ?? maxBufferedBytes) && !hold.held && !db.inTransaction) begin();
        }
      } catch (error) {
        drop();
        ahead.restore();
        if (!ledger.finished) ledger.finish();
        throw error;
      }
    },
    commit: async () => {
      ledger.finish();
      try {
        while (!held && hold.held) await hold.settled();
        if (!held) begin();
        const outcome = results();
        handToParticipants(outcome.filter((result) => result.events > 0));
        db.exec('COMMIT');
        held = false;
        hold.release(owner);
        ahead.settle();
        host.committed(outcome);
        return outcome;
      } catch (error) {
        drop();
        ahead.abandon();
        throw error;
      } finally {
        buffered = [];
        kept = undefined;
      }
    },
    abort: async () => {
      if (ledger.finished) return;
      ledger.finish();
      drop();
      ahead.restore();
    },
  };
};
