import type Database from 'better-sqlite3';
import {
  DuplicateEventId, EventToAppend, GlobalPosition, InvalidAppend, StagedAppends, StagedStreamResult, StagingLedger, StreamName,
  assertExpectedRevision, assertValidBatch,
} from '@teamlog/store';

/** What a unit needs from the store that opened it. */
export interface StagingHost {
  readonly db: Database.Database;
  readonly clock: () => Date;
  readonly assertOpen: () => void;
  /** After a commit: wake subscriptions. */
  readonly committed: () => void;
}

/*
 * Staged events wait in a temporary table of the connection: SQLite keeps it in a file of its
 * own (temp_store FILE), so memory stays bounded whatever the unit's size, and writing it takes
 * no lock on the store file. The commit copies them into `events` in one IMMEDIATE transaction.
 */
const stagingTable = 'temp.teamlog_staged_events';
const createStaging = `CREATE TABLE IF NOT EXISTS ${stagingTable} (
  unit INTEGER NOT NULL, stream_name TEXT NOT NULL, offset INTEGER NOT NULL,
  event_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT,
  PRIMARY KEY (unit, stream_name, offset), UNIQUE (unit, event_id)
)`;

const toPosition = (position: number | bigint): GlobalPosition => {
  const value = BigInt(position);
  return { commit: value, prepare: value };
};

let nextUnit = 0;

const isConstraint = (error: unknown, code: string): boolean => typeof error === 'object' && error !== null && 'code' in error && error.code === code;

/** A unit of staged appends on a SQLite store's connection (see StagedAppends in @teamlog/store). */
export const sqliteStagedAppends = (host: StagingHost): StagedAppends => {
  const { db } = host;
  host.assertOpen();
  db.exec(createStaging);
  const unit = (nextUnit += 1);
  const ledger = new StagingLedger();
  const insert = db.prepare(`INSERT INTO ${stagingTable} (unit, stream_name, offset, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const drop = (): void => {
    // A closed connection took its temporary table with it.
    if (db.open) db.prepare(`DELETE FROM ${stagingTable} WHERE unit = ?`).run(unit);
  };
  const stageRows = db.transaction((stream: StreamName, first: number, rows: ReadonlyArray<readonly [string, string, string, string | null]>) => {
    rows.forEach(([id, type, data, metadata], index) => insert.run(unit, stream, first + index, id, type, data, metadata));
  });

  const copy = db.prepare(
    `INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at)
     SELECT stream_name, ? + offset, event_id, type, data, metadata, ? FROM ${stagingTable} WHERE unit = ? AND stream_name = ? ORDER BY offset`,
  );
  const head = db.prepare<[string], { last_revision: number | bigint; last_position: number | bigint }>('SELECT last_revision, last_position FROM streams WHERE stream_name = ?');
  const lastPosition = db.prepare<[], { position: number | bigint | null }>('SELECT MAX(position) AS position FROM events');
  const upsertHead = db.prepare(
    `INSERT INTO streams (stream_name, last_revision, last_position) VALUES (?, ?, ?)
     ON CONFLICT (stream_name) DO UPDATE SET last_revision = excluded.last_revision, last_position = excluded.last_position`,
  );
  const clash = db.prepare<[number], { event_id: string; stream_name: string }>(
    `SELECT s.event_id, s.stream_name FROM ${stagingTable} s JOIN main.events e ON e.event_id = s.event_id WHERE s.unit = ? LIMIT 1`,
  );

  const write = db.transaction((recordedAt: number): StagedStreamResult[] => {
    const heads = ledger.streams.map((staged) => {
      const row = head.get(staged.stream);
      const last = row === undefined ? undefined : BigInt(row.last_revision);
      assertExpectedRevision(staged.stream, staged.expected, last);
      return { staged, last, lastPosition: row?.last_position };
    });
    return heads.map(({ staged, last, lastPosition: previous }): StagedStreamResult => {
      if (staged.events === 0) {
        const position = previous ?? lastPosition.get()?.position ?? 0;
        return { streamName: staged.stream, events: 0, nextExpectedRevision: last ?? -1n, position: toPosition(position) };
      }
      const base = last === undefined ? 0n : last + 1n;
      const { lastInsertRowid } = copy.run(base, recordedAt, unit, staged.stream);
      const revision = base + BigInt(staged.events) - 1n;
      upsertHead.run(staged.stream, revision, lastInsertRowid);
      return { streamName: staged.stream, events: staged.events, nextExpectedRevision: revision, position: toPosition(lastInsertRowid) };
    });
  });

  return {
    append: async (stream: StreamName, events: readonly EventToAppend[], options) => {
      host.assertOpen();
      assertValidBatch(stream, events);
      // Encoded before staging: a value JSON cannot hold fails this call and stages nothing.
      const rows = events.map((event) => [event.id, event.type, JSON.stringify(event.data), event.metadata === undefined ? null : JSON.stringify(event.metadata)] as const);
      const first = ledger.streams.find((staged) => staged.stream === stream)?.events ?? 0;
      ledger.stage(stream, events.length, options);
      try {
        stageRows(stream, first, rows);
      } catch (error) {
        drop();
        if (!ledger.finished) ledger.finish();
        if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE') || isConstraint(error, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
          throw new InvalidAppend(`stream ${stream}: an event id appears twice in one unit of staged appends`);
        }
        throw error;
      }
    },
    commit: async () => {
      ledger.finish();
      try {
        host.assertOpen();
        let results: StagedStreamResult[];
        try {
          results = write.immediate(host.clock().getTime());
        } catch (error) {
          if (!isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE')) throw error;
          const found = clash.get(unit);
          if (found === undefined) throw error;
          throw new DuplicateEventId(found.event_id as EventToAppend['id'], found.stream_name as StreamName, 'the id is already stored; nothing of the unit was written');
        }
        host.committed();
        return results;
      } finally {
        drop();
      }
    },
    abort: async () => {
      if (ledger.finished) return;
      ledger.finish();
      drop();
    },
  };
};
