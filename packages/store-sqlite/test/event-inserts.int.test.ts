import type { EventId } from '@teamlog/events';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { EventInserts, type OnConflict, pushEventRow } from '../src/event-rows';

/* A group's one insert ends its transaction when a row is refused, so SQLite keeps no statement journal for it. */

const rowsOf = (ids: readonly string[], firstRevision: number): unknown[] => {
  const values: unknown[] = [];
  ids.forEach((id, offset) =>
    pushEventRow(
      values,
      'session-inserts',
      BigInt(firstRevision + offset),
      { id: id as EventId, type: 'x/row', data: '{}', metadata: null },
      1,
    ),
  );
  return values;
};

/** Inside one transaction: one row inserted, then two rows of which the second repeats the first's id. */
const refusedAfterOneRow = async (onConflict: OnConflict) => {
  const store = SqliteEventStore.open(':memory:');
  try {
    const db = store.database;
    // No chain column in the rows: the test inserts unchained rows into the chained schema's nullable digest.
    const plain = new EventInserts(db, false);
    const tested = new EventInserts(db, false, onConflict);
    db.prepare('BEGIN IMMEDIATE').run();
    plain.run(1, rowsOf(['id-kept'], 0));
    let code: unknown;
    try {
      tested.run(2, rowsOf(['id-new', 'id-kept'], 1));
    } catch (error) {
      code = (error as { code?: unknown }).code;
    }
    const inTransaction = db.inTransaction;
    if (inTransaction) db.prepare('COMMIT').run();
    const stored = db.prepare('SELECT event_id FROM events ORDER BY position').pluck().all();
    return { code, inTransaction, stored };
  } finally {
    await store.close();
  }
};

describe('EventInserts', () => {
  it('with rollback, a refused row ends the whole transaction: nothing of it is kept', async () => {
    expect(await refusedAfterOneRow('rollback')).toEqual({
      code: 'SQLITE_CONSTRAINT_UNIQUE',
      inTransaction: false,
      stored: [],
    });
  });

  it('with abort (the default), a refused row undoes only its statement: the transaction goes on', async () => {
    expect(await refusedAfterOneRow('abort')).toEqual({
      code: 'SQLITE_CONSTRAINT_UNIQUE',
      inTransaction: true,
      stored: ['id-kept'],
    });
  });
});
