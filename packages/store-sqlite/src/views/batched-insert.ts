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
  /** The rows added and not yet written, kept from one statement to the next instead of a fresh array per 64 rows. */
  private readonly values: unknown[];
  /** One row's values, for the single-row statement of a flush. */
  private readonly oneRow: unknown[];
  private rows = 0;

  /** `head`: the statement up to VALUES, e.g. `INSERT OR REPLACE INTO t (a, b)`; `width`: its column count. */
  constructor(
    private readonly db: Database.Database,
    private readonly head: string,
    private readonly width: number,
  ) {
    this.values = new Array<unknown>(rowsPerStatement * width).fill(null);
    this.oneRow = new Array<unknown>(width).fill(null);
  }

  add(row: readonly unknown[]): void {
    if (row.length !== this.width)
      throw new Error(`${this.head}: a row of ${row.length} values, expected ${this.width}`);
    const at = this.rows * this.width;
    for (let column = 0; column < this.width; column += 1) this.values[at + column] = row[column];
    this.rows += 1;
    if (this.rows === rowsPerStatement) this.flush();
  }

  /** Write the rows added so far. */
  flush(): void {
    if (this.rows === 0) return;
    const rows = this.rows;
    this.rows = 0;
    try {
      // As arguments (run-bound.ts); a routed write gets a copy, never the kept array.
      if (rows === rowsPerStatement) this.statementFor(rows).runValues(this.values);
      else {
        const one = this.statementFor(1);
        for (let row = 0; row < rows; row += 1) {
          for (let column = 0; column < this.width; column += 1)
            this.oneRow[column] = this.values[row * this.width + column];
          one.runValues(this.oneRow);
        }
      }
    } finally {
      // The values are bound (copied) once a statement ran: the kept arrays hold no row past its write.
      this.values.fill(null, 0, rows * this.width);
      this.oneRow.fill(null);
    }
  }

  /** Forget the rows added and not written (their transaction is rolled back). */
  clear(): void {
    this.values.fill(null, 0, this.rows * this.width);
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
