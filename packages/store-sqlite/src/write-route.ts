import type Database from 'better-sqlite3';
import { runBound } from './run-bound';

/** Where a connection's routed writes go while a unit's writer thread holds the file's write transaction. */
export interface RoutedWrites {
  run(sql: string, params: readonly unknown[]): void;
}

const routes = new WeakMap<Database.Database, RoutedWrites>();

/**
 * Route the writes made through `writeStatement` on `db` to `to` until the returned function is
 * called. A unit written by the writer thread (sqlite-writer-unit.ts) routes the inline views'
 * rows there, so they are committed in the same transaction as their events, on the writer's
 * connection, while this connection only reads what is committed.
 */
export const routeWrites = (db: Database.Database, to: RoutedWrites): (() => void) => {
  routes.set(db, to);
  return () => {
    if (routes.get(db) === to) routes.delete(db);
  };
};

/** Whether `db`'s writes are routed elsewhere now (then its own transaction must not be opened for them). */
export const writesRouted = (db: Database.Database): boolean => routes.has(db);

/** A write statement on `db`: run there, or handed to where its writes are routed. */
export interface WriteStatement {
  run(...params: unknown[]): void;
  /**
   * Run with `values` as the statement's arguments (run-bound.ts), spread once: `run(...values)`
   * would gather them into a fresh array and spread that again. A routed write gets a copy.
   */
  runValues(values: readonly unknown[]): void;
}

export const writeStatement = (db: Database.Database, sql: string): WriteStatement => {
  const statement = db.prepare(sql);
  return {
    run: (...params: unknown[]): void => {
      const route = routes.get(db);
      if (route === undefined) statement.run(...params);
      else route.run(sql, params);
    },
    runValues: (values: readonly unknown[]): void => {
      const route = routes.get(db);
      if (route === undefined) runBound(statement, values);
      else route.run(sql, values.slice());
    },
  };
};
