import type Database from 'better-sqlite3';
import { eventColumns } from './event-rows';

/**
 * The multi-row inserts into `events` a unit writes with, each prepared once per row count.
 * OR ROLLBACK: a refused row ends the unit's whole transaction, which the unit drops anyway; with
 * the default ABORT, SQLite would copy every page each multi-row insert touches into a statement
 * journal to undo that statement alone (about 40% of the insert's CPU; event-rows.ts OnConflict).
 */
export const eventsInsertStatements = (
  db: Database.Database,
  chained: boolean,
): ((rowCount: number) => Database.Statement) => {
  const columns = ['position', ...eventColumns(chained)];
  const rowPlaceholders = `(${columns.map(() => '?').join(', ')})`;
  const inserts = new Map<number, Database.Statement>();
  return (rowCount) => {
    let statement = inserts.get(rowCount);
    if (statement === undefined) {
      statement = db.prepare(
        `INSERT OR ROLLBACK INTO events (${columns.join(', ')}) VALUES ${Array.from({ length: rowCount }, () => rowPlaceholders).join(', ')}`,
      );
      inserts.set(rowCount, statement);
    }
    return statement;
  };
};
