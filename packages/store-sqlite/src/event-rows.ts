import type Database from 'better-sqlite3';
import type { EventId } from '@teamlog/events';
import { runBound } from './run-bound';

/** An event as the store writes it: JSON already encoded, so a value JSON cannot hold fails before anything is written. */
export interface EncodedEvent {
  readonly id: EventId;
  readonly type: string;
  readonly data: string;
  readonly metadata: string | null;
}

/*
 * The columns of one stored event, in insert order: the hash chain's digest last, where the schema
 * has it (sqlite-event-chain.ts). A new column is added here, in `pushEventRow` and in `setEventRow`,
 * and every insert of an append (one row, a whole group, or the copy of a staged unit) follows.
 */
export const eventColumns = (chained: boolean): readonly string[] => [
  'stream_name',
  'revision',
  'event_id',
  'type',
  'data',
  'metadata',
  'recorded_at',
  ...(chained ? ['digest'] : []),
];

/** Append one row's values to a statement's flat parameter list, in `eventColumns` order (the digest only on a chained store). */
export const pushEventRow = (
  values: unknown[],
  stream: string,
  revision: bigint,
  event: EncodedEvent,
  recordedAt: number,
  digest?: string,
): void => {
  values.push(stream, revision, event.id, event.type, event.data, event.metadata, recordedAt);
  if (digest !== undefined) values.push(digest);
};

/** `pushEventRow` in place: row `row` of a flat parameter list `width` values a row (`eventColumns(chained).length`). */
export const setEventRow = (
  values: unknown[],
  row: number,
  width: number,
  stream: string,
  revision: bigint,
  event: EncodedEvent,
  recordedAt: number,
  digest?: string,
): void => {
  const at = row * width;
  values[at] = stream;
  values[at + 1] = revision;
  values[at + 2] = event.id;
  values[at + 3] = event.type;
  values[at + 4] = event.data;
  values[at + 5] = event.metadata;
  values[at + 6] = recordedAt;
  if (digest !== undefined) values[at + 7] = digest;
};

/** SQLite binds at most 32 766 parameters in one statement. */
const maxBoundParameters = 32_766;

/**
 * What a refused row does: `abort` undoes only the statement (so SQLite copies every page a
 * multi-row insert changes into a statement journal, a temporary file past 64 KiB, to undo it
 * alone); `rollback` ends the whole transaction, and SQLite keeps no such journal. A group commit,
 * which redoes a refused group one append at a time in a new transaction (sqlite-event-store.ts),
 * loses nothing by `rollback`; with `abort` its 64-row inserts wrote about 2 KiB of journal per row
 * besides the WAL's 3 KiB (docs/benchmarks.md).
 */
export type OnConflict = 'abort' | 'rollback';

/**
 * Prepared multi-row inserts by row count, so a group commit writes its rows in one statement.
 * Group sizes repeat (the number of concurrent senders), so few statements are ever prepared.
 */
export class EventInserts {
  private readonly byCount = new Map<number, Database.Statement>();
  private readonly columns: readonly string[];
  private readonly rowPlaceholders: string;
  /** More rows than this go in several statements. */
  private readonly maxRowsPerStatement: number;

  constructor(
    private readonly db: Database.Database,
    chained: boolean,
    private readonly onConflict: OnConflict = 'abort',
  ) {
    this.columns = eventColumns(chained);
    this.rowPlaceholders = `(${this.columns.map(() => '?').join(', ')})`;
    this.maxRowsPerStatement = Math.floor(maxBoundParameters / this.columns.length);
  }

  /**
   * Insert `count` rows (`values` holds them in `eventColumns` order) and return the last one's
   * position; a refused row undoes the statement or the transaction (see OnConflict). The caller
   * holds the write lock, so the rows' positions (rowids, each max + 1) are consecutive and end at
   * the returned one.
   */
  run(count: number, values: readonly unknown[]): bigint {
    let last = 0n;
    const width = this.columns.length;
    for (let start = 0; start < count; start += this.maxRowsPerStatement) {
      const rows = Math.min(this.maxRowsPerStatement, count - start);
      const slice = rows === count ? values : values.slice(start * width, (start + rows) * width);
      last = BigInt(runBound(this.statementFor(rows), slice).lastInsertRowid);
    }
    return last;
  }

  /**
   * One row, its values handed to the statement as arguments: an array argument is read back one
   * element at a time through V8, which made a single send's insert bind about 3,000 instructions
   * more (docs/benchmarks.md, _One sender's statements against the raw insert_). Returns its position.
   */
  runOne(stream: string, revision: bigint, event: EncodedEvent, recordedAt: number, digest?: string): bigint {
    const statement = this.statementFor(1);
    const { lastInsertRowid } =
      digest === undefined
        ? statement.run(stream, revision, event.id, event.type, event.data, event.metadata, recordedAt)
        : statement.run(stream, revision, event.id, event.type, event.data, event.metadata, recordedAt, digest);
    return BigInt(lastInsertRowid);
  }

  private statementFor(count: number): Database.Statement {
    let statement = this.byCount.get(count);
    if (statement === undefined) {
      statement = this.db.prepare(
        `INSERT${this.onConflict === 'rollback' ? ' OR ROLLBACK' : ''} INTO events (${this.columns.join(', ')}) VALUES ${Array.from({ length: count }, () => this.rowPlaceholders).join(', ')}`,
      );
      this.byCount.set(count, statement);
    }
    return statement;
  }
}
