import type Database from 'better-sqlite3';
import { type WriteStatement, writeStatement } from '../write-route';

/** Rows per multi-row statement; fewer (at a flush) go one statement each, so two shapes are ever prepared. */
const rowsPerStatement = 64;

/**
 * The rows of one INSERT into a view table, written up to 64 in one statement instead of one
 * statement each: a commit of a big Lead log writes hundreds of thousands of team rows, and a
 * statement per row cost about twice the CPU. Rows are written in the order they were added (so
 * OR REPLACE and OR IGNORE resolve as row by row would); `flush` before anything else that reads or
 * changes the table in the same transaction.
 */
export class BatchedInsert {
  private readonly statements = new Map<number, WriteStatement>();
  private values: unknown[] = [];
  private rows = 0;

  /** `head`: the statement up to VALUES, e.g. `INSERT OR REPLACE INTO t (a, b)`; `width`: its column count. */
  constructor(
    private readonly db: Database.Database,
    private readonly head: string,
    private readonly width: number,
  ) {}

  add(row: readonly unknown[]): void {
    if (row.length !== this.width)
      throw new Error(`${this.head}: a row of ${row.length} values, expected ${this.width}`);
    for (const value of row) this.values.push(value);
    this.rows += 1;
    if (this.rows === rowsPerStatement) this.flush();
  }

  /** Write the rows added so far. */
  flush(): void {
    if (this.rows === 0) return;
    const values = this.values;
    const rows = this.rows;
    this.values = [];
    this.rows = 0;
    if (rows === rowsPerStatement) {
      this.statementFor(rows).run(values);
      return;
    }
    const one = this.statementFor(1);
    for (let row = 0; row < rows; row += 1) one.run(values.slice(row * this.width, (row + 1) * this.width));
  }

  /** Forget the rows added and not written (their transaction is rolled back). */
  clear(): void {
    this.values = [];
    this.rows = 0;
  }

  private statementFor(rows: number): WriteStatement {
    let statement = this.statements.get(rows);
    if (statement === undefined) {
      const row = `(${Array.from({ length: this.width }, () => '?').join(', ')})`;
      statement = writeStatement(this.db, `${this.head} VALUES ${Array.from({ length: rows }, () => row).join(', ')}`);
      this.statements.set(rows, statement);
    }
    return statement;
  }
}
