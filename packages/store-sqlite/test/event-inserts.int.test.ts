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

/** The stored row of `event_id` as SQLite keeps it: every column's type and value. */
const storedRow = (db: SqliteEventStore['database'], id: string) =>
  db
    .prepare(
      `SELECT position, stream_name, revision, typeof(revision) AS revision_type, event_id, type, data, metadata,
              recorded_at, typeof(recorded_at) AS recorded_at_type, digest FROM events WHERE event_id = ?`,
    )
    .get(id);

describe('EventInserts.runOne', () => {
  it.each([
    ['chained', true, 'd'.repeat(64)],
    ['unchained', false, undefined],
  ])(
    'stores a %s row exactly as the same row bound as an array, and answers its position',
    async (_, chained, digest) => {
      const store = SqliteEventStore.open(':memory:');
      try {
        const db = store.database;
        const inserts = new EventInserts(db, chained, 'rollback');
        const event = { type: 'x/row', data: '{"a":1}', metadata: '{"m":true}' };
        const asArray: unknown[] = [];
        pushEventRow(asArray, 'session-one', 0n, { ...event, id: 'id-array' as EventId }, 1_700_000_000_000, digest);
        inserts.run(1, asArray);
        const position = inserts.runOne(
          'session-one',
          1n,
          { ...event, id: 'id-one' as EventId },
          1_700_000_000_000,
          digest,
        );
        const viaArray = storedRow(db, 'id-array') as Record<string, unknown>;
        const viaArguments = storedRow(db, 'id-one') as Record<string, unknown>;
        expect(position).toBe(BigInt(viaArguments.position as bigint));
        expect({ ...viaArguments, position: undefined, revision: undefined, event_id: undefined }).toEqual({
          ...viaArray,
          position: undefined,
          revision: undefined,
          event_id: undefined,
        });
        expect(viaArguments.digest).toBe(digest ?? null);
      } finally {
        await store.close();
      }
    },
  );
});
