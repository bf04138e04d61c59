/**
 * The values of one multi-row insert, in one array kept per row count and refilled for each
 * statement: better-sqlite3 binds (copies) every value when the statement runs, so the array is
 * free again once `run` returns. A unit writes hundreds of thousands of rows; a fresh array grown
 * by `push` for each 64 rows, with three BigInts a row, was most of what its inserts allocated
 * (docs/benchmarks.md, _The SQLite replay's unit inserts and views_).
 */
export class InsertBindings {
  private readonly kept = new Map<number, unknown[]>();

  /** `width`: the values per row. */
  constructor(private readonly width: number) {}

  /** The array for `rows` rows (its old values are overwritten by the caller). */
  of(rows: number): unknown[] {
    const values = this.kept.get(rows);
    if (values !== undefined) return values;
    return new Array<unknown>(rows * this.width).fill(null);
  }

  /** The statement ran: keep the array for the next insert of as many rows, holding no row's values. */
  release(values: unknown[]): void {
    values.fill(null);
    this.kept.set(values.length / this.width, values);
  }
}

/**
 * `base + offset` as the value bound for an INTEGER column: a number while every such value is an
 * exact integer (SQLite stores an integral number bound to an INTEGER column as that integer, the
 * same bytes as the BigInt would give), a BigInt past 2^53.
 */
export const boundInteger = (base: bigint): ((offset: number) => number | bigint) => {
  if (base >= 0n && base < BigInt(Number.MAX_SAFE_INTEGER) - 2n ** 32n) {
    const start = Number(base);
    return (offset) => start + offset;
  }
  return (offset) => base + BigInt(offset);
};
