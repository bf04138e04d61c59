import type { EncodedEvent } from './event-rows';
import { eventColumns, setEventRow } from './event-rows';

/**
 * A group commit's rows as one flat parameter list, kept from group to group: the concurrent
 * senders' groups repeat their size, so a steady group writes its values into the array the last
 * one bound (no array grown by push, no array per group). Emptied after each insert, so the rows'
 * texts are not kept alive past their group (docs/benchmarks.md, _64 senders: the group's
 * parameters kept, the lock's free keys_). Unlike a unit's `InsertBindings`, the row count is known
 * only once the group is planned, so rows are written as they are planned and the array is cut to
 * them when bound.
 */
export class GroupRows {
  private values: unknown[] = [];
  private readonly width: number;
  /** Rows written since the last `clear`. */
  rows = 0;

  constructor(chained: boolean) {
    this.width = eventColumns(chained).length;
  }

  /** Write the next row's values, in `eventColumns` order (the digest only on a chained store). */
  push(stream: string, revision: bigint, event: EncodedEvent, recordedAt: number, digest?: string): void {
    setEventRow(this.values, this.rows, this.width, stream, revision, event, recordedAt, digest);
    this.rows += 1;
  }

  /** The written rows' values, exactly: the kept array, cut to them when a larger group used it before. */
  bound(): readonly unknown[] {
    const length = this.rows * this.width;
    if (this.values.length !== length) this.values.length = length;
    return this.values;
  }

  /** Forget the rows (their slots emptied, the array kept at its length) for the next group or flush. */
  clear(): void {
    this.values.fill(undefined);
    this.rows = 0;
  }
}
