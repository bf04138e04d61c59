import type Database from 'better-sqlite3';
import { EventId } from '@teamlog/events';

/** An event as the store writes it: JSON already encoded, so a value JSON cannot hold fails before anything is written. */
export interface EncodedEvent {
  readonly id: EventId;
  readonly type: string;
  readonly data: string;
  readonly metadata: string | null;
}

/*
 * The columns of one stored event, in insert order. A new column is added here and in
 * `pushEventRow`, and every insert of an append (one row or a whole group) follows.
 */
const eventColumns = ['stream_name', 'revision', 'event_id', 'type', 'data', 'metadata', 'recorded_at'] as const;

/** Append one row's values to a statement's flat parameter list, in `eventColumns` order. */
export const pushEventRow = (values: unknown[], stream: string, revision: bigint, event: EncodedEvent, recordedAt: number): void => {
  values.push(stream, revision, event.id, event.type, event.data, event.metadata, recordedAt);
};

/** SQLite binds at most 32 766 parameters in one statement: more rows go in several statements. */
const maxRowsPerStatement = Math.floor(32_766 / eventColumns.length);

const rowPlaceholders = `(${eventColumns.map(() => '?').join(', ')})`;

/**
 * Prepared multi-row inserts by row count, so a group commit writes its rows in one statement.
 * Group sizes repeat (the number of concurrent senders), so few statements are ever prepared.
 */
export class EventInserts {
  private readonly byCount = new Map<number, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /**
   * Insert `count` rows (`values` holds them in `eventColumns` order) and return the last one's
   * position. The caller holds the write lock, so the rows' positions (rowids, each max + 1) are
   * consecutive and end at the returned one.
   */
  run(count: number, values: readonly unknown[]): bigint {
    let last = 0n;
    for (let start = 0; start < count; start += maxRowsPerStatement) {
      const rows = Math.min(maxRowsPerStatement, count - start);
      const slice = rows === count ? values : values.slice(start * eventColumns.length, (start + rows) * eventColumns.length);
      last = BigInt(this.statementFor(rows).run(slice).lastInsertRowid);
    }
    return last;
  }

  private statementFor(count: number): Database.Statement {
    let statement = this.byCount.get(count);
    if (statement === undefined) {
      statement = this.db.prepare(`INSERT INTO events (${eventColumns.join(', ')}) VALUES ${Array.from({ length: count }, () => rowPlaceholders).join(', ')}`);
      this.byCount.set(count, statement);
    }
    return statement;
  }
}
