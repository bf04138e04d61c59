import type Database from 'better-sqlite3';

/** At most this many values go in as arguments: 32 KiB of stack, far below V8's limit wherever a write runs. */
export const maxArgumentValues = 4096;

/** What `runBound` needs of a statement (a better-sqlite3 `Statement`). */
export interface RunnableStatement {
  run(...params: unknown[]): Database.RunResult;
}

/**
 * Run `statement` with `values` handed over as its arguments, not as one array argument:
 * better-sqlite3 reads an array's elements back one at a time through V8's API, about 400
 * instructions a value more (docs/benchmarks.md, _One sender's statements against the raw insert_).
 * More than `maxArgumentValues` values go in as the array.
 */
export const runBound = (statement: RunnableStatement, values: readonly unknown[]): Database.RunResult =>
  values.length <= maxArgumentValues ? statement.run(...values) : statement.run(values);
