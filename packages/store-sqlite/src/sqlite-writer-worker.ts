import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import {
  type EventDigest,
  type GlobalPosition,
  type StagedStreamResult,
  type StreamName,
  assertExpectedRevision,
  isStoreError,
} from '@teamlog/store';
import { eventsInsertStatements } from './events-insert-statements';
import { runBound } from './run-bound';
import { explainUnitIdClash } from './unit-id-clash';
import { ChainCursor, hasChainColumn } from './sqlite-event-chain';
import { type StagedRow, unpackStagedRows } from './staged-row-buffer';
import {
  type WriterFailure,
  type WriterReply,
  type WriterRequest,
  WriterSignal,
  type WriterThreadData,
} from './sqlite-writer-protocol';

/*
 * The writer thread of a SQLite store (sqlite-writer-thread.ts): it owns a second connection to the
 * store's file and, for one unit at a time, its IMMEDIATE transaction. It decodes the unit's
 * transferred row batches, gives each row its position, revision and hash-chain digest, inserts
 * them into `events`, runs the views' rows the importing thread routed to it, and commits or rolls
 * back: the unit is written once, whole or not at all (docs/rules.md#one-pass-import). Requests are
 * handled in the order they were posted; after each one the shared count of pending requests goes
 * down, which is what the importing thread waits on.
 */

const port = parentPort;
if (port === null) throw new Error('sqlite-writer-worker runs as a worker thread');
const data = workerData as WriterThreadData;
const shared = new Int32Array(data.shared);
const replies = data.replies;

const db = new Database(data.file, { fileMustExist: true });
db.defaultSafeIntegers(true);
db.pragma(`busy_timeout = ${data.busyTimeoutMs}`);
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma(`cache_size = ${data.cacheSize}`);
const chained = hasChainColumn(db);
const chain = new ChainCursor(db, chained);

/** Rows per multi-row insert (each statement prepared once per row count). */
const rowsPerInsert = 64;
const insertOf = eventsInsertStatements(db, chained);
const head = db.prepare<[string], { revision: bigint; position: bigint }>(
  'SELECT revision, position FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
);
const lastPosition = db.prepare<[], { position: bigint | null }>('SELECT MAX(position) AS position FROM events');
const findId = db.prepare<[string], { stream_name: string }>('SELECT stream_name FROM events WHERE event_id = ?');
const after = db.prepare<[bigint, number]>('SELECT * FROM events WHERE position > ? ORDER BY position ASC LIMIT ?');
const statements = new Map<string, Database.Statement>();
const statementOf = (sql: string): Database.Statement => {
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
};

const toPosition = (position: bigint): GlobalPosition => ({ commit: position, prepare: position });

/** What the unit wrote of one stream: its first revision, how many rows, and where its chain ends. */
interface WrittenStream {
  readonly base: bigint;
  count: number;
  digest: EventDigest | undefined;
}

/** The unit whose transaction this connection holds. */
interface Unit {
  readonly before: bigint;
  readonly written: Map<string, WrittenStream>;
  rows: bigint;
}

let unit: Unit | undefined;
/** Why the current unit failed (its transaction is rolled back); answered to every call until the rollback. */
let failure: WriterFailure | undefined;

const headRevision = (stream: string): bigint | undefined => head.get(stream)?.revision;

/** An id clash, explained from what is committed (the OR ROLLBACK took the unit's rows). */
const explainClash = (error: unknown, stream: string, rows: readonly StagedRow[]): unknown =>
  explainUnitIdClash(error, stream as StreamName, rows, (id) => findId.get(id)?.stream_name);

/** A SHA-256 digest in hex. */
const digestLength = 64;

const insertRows = (
  stream: string,
  firstRevision: bigint,
  at: bigint,
  rows: readonly StagedRow[],
  recordedAt: number,
  digests: string | undefined,
): void => {
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    const count = Math.min(rowsPerInsert, rows.length - start);
    const values: unknown[] = [];
    for (let index = start; index < start + count; index += 1) {
      const [id, type, text, metadata] = rows[index] as StagedRow;
      const offset = BigInt(index);
      values.push(at + offset, stream, firstRevision + offset, id, type, text, metadata, recordedAt);
      if (!chained) continue;
      if (digests === undefined) values.push(chain.next(type, text, metadata));
      else values.push(digests.slice(index * digestLength, (index + 1) * digestLength));
    }
    runBound(insertOf(count), values);
  }
};

/** Write one batch after the stream's earlier rows of the unit (a stream staged again after another moves the later ones). */
const writeBatch = (current: Unit, request: Extract<WriterRequest, { kind: 'rows' }>): void => {
  const rows = unpackStagedRows(request.rows);
  if (rows.length === 0) return;
  const { stream } = request;
  let mine = current.written.get(stream);
  if (mine === undefined) {
    const last = headRevision(stream);
    assertExpectedRevision(stream as StreamName, request.expected, last);
    mine = { base: last === undefined ? 0n : last + 1n, count: 0, digest: undefined };
    chain.seek(stream as StreamName, mine.base);
    current.written.set(stream, mine);
  } else chain.resume(mine.digest);
  let rowsAfter = 0n;
  let passed = false;
  for (const [name, entry] of current.written) {
    if (passed) rowsAfter += BigInt(entry.count);
    if (name === stream) passed = true;
  }
  const at = current.before + current.rows - rowsAfter + 1n;
  const shift = BigInt(rows.length);
  try {
    if (rowsAfter > 0n) {
      // Two steps through negative positions, so no row meets another's position on the way.
      db.prepare('UPDATE events SET position = -position - ? WHERE position >= ?').run(shift, at);
      db.prepare('UPDATE events SET position = -position WHERE position < 0').run();
    }
    insertRows(stream, mine.base + BigInt(mine.count), at, rows, request.recordedAt, request.digests);
  } catch (error) {
    throw explainClash(error, stream, rows);
  }
  mine.count += rows.length;
  mine.digest = request.digests === undefined ? chain.current : (request.digests.slice(-digestLength) as EventDigest);
  current.rows += shift;
};

/** Every stream's result, in the ledger's order (a stream with no rows: its committed head). */
const results = (current: Unit, streams: Extract<WriterRequest, { kind: 'results' }>['streams']) => {
  let position = current.before;
  return streams.map(({ stream, expected }): StagedStreamResult => {
    const mine = current.written.get(stream);
    if (mine === undefined) {
      const row = head.get(stream);
      assertExpectedRevision(stream as StreamName, expected, row?.revision);
      return {
        streamName: stream as StreamName,
        events: 0,
        nextExpectedRevision: row?.revision ?? -1n,
        position: toPosition(row?.position ?? lastPosition.get()?.position ?? 0n),
      };
    }
    position += BigInt(mine.count);
    return {
      streamName: stream as StreamName,
      events: mine.count,
      nextExpectedRevision: mine.base + BigInt(mine.count) - 1n,
      position: toPosition(position),
    };
  });
};

const failureOf = (error: unknown): WriterFailure =>
  isStoreError(error)
    ? { kind: 'store', fault: error.fault }
    : {
        kind: 'error',
        message: error instanceof Error ? error.message : String(error),
        code:
          typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
            ? error.code
            : undefined,
      };

const rollBack = (): void => {
  if (db.open && db.inTransaction) db.exec('ROLLBACK');
  unit = undefined;
};

const held = (): Unit => {
  if (unit === undefined) throw new Error('the writer thread holds no unit');
  return unit;
};

/** Handle one request; the answer of a call, or undefined for a write. */
const handle = (request: WriterRequest): WriterReply | undefined => {
  switch (request.kind) {
    case 'begin': {
      failure = undefined;
      db.exec('BEGIN IMMEDIATE');
      unit = { before: lastPosition.get()?.position ?? 0n, written: new Map(), rows: 0n };
      return { kind: 'begun', before: unit.before };
    }
    case 'rows':
      if (failure === undefined) writeBatch(held(), request);
      return undefined;
    case 'sql':
      if (failure === undefined) for (const [sql, params] of request.statements) statementOf(sql).run(...params);
      return undefined;
    case 'results':
      return { kind: 'results', results: results(held(), request.streams) };
    case 'read':
      return { kind: 'rows', rows: after.all(request.after, request.max) };
    case 'commit':
      held();
      db.exec('COMMIT');
      unit = undefined;
      return { kind: 'done' };
    case 'rollback':
      failure = undefined;
      rollBack();
      return { kind: 'done' };
    case 'close':
      rollBack();
      db.close();
      return { kind: 'done' };
    default: {
      const never: never = request;
      throw new Error(`unknown writer request ${JSON.stringify(never)}`);
    }
  }
};

const answers = (request: WriterRequest): boolean => request.kind !== 'rows' && request.kind !== 'sql';

port.on('message', (request: WriterRequest) => {
  try {
    if (failure !== undefined && answers(request) && request.kind !== 'rollback' && request.kind !== 'close')
      replies.postMessage({ kind: 'failed', failure } satisfies WriterReply);
    else {
      const reply = handle(request);
      if (reply !== undefined) replies.postMessage(reply);
    }
  } catch (error) {
    // The unit ends here: nothing of it stays, and the importing thread learns why at its next call.
    failure = failureOf(error);
    try {
      rollBack();
    } catch {
      // The connection is gone; the failure already says why.
    }
    if (answers(request)) replies.postMessage({ kind: 'failed', failure } satisfies WriterReply);
    else Atomics.store(shared, 1, WriterSignal.UnitFailed);
  } finally {
    Atomics.sub(shared, 0, 1);
    Atomics.notify(shared, 0);
    if (request.kind === 'close') port.close();
  }
});

process.on('exit', () => {
  Atomics.store(shared, 1, WriterSignal.Exited);
  Atomics.notify(shared, 0);
});
