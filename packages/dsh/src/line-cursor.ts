import type { LineSplitEnd, SplitLine } from './line-splitter';

/** Lines one at a time from the splitter's batches; `end` is set once the input is exhausted. */
export class LineCursor {
  private batch: readonly SplitLine[] = [];
  private index = 0;
  end: LineSplitEnd | undefined;

  constructor(private readonly batches: AsyncGenerator<readonly SplitLine[], LineSplitEnd>) {}

  async next(): Promise<SplitLine | undefined> {
    while (this.index >= this.batch.length) {
      if (this.end !== undefined) return undefined;
      const next = await this.batches.next();
      if (next.done === true) this.end = next.value;
      else {
        this.batch = next.value;
        this.index = 0;
      }
    }
    const line = this.batch[this.index] as SplitLine;
    this.index += 1;
    return line;
  }

  /** The next line and the rest of its batch (read without awaiting again); empty at the end. */
  async nextBatch(): Promise<readonly SplitLine[]> {
    const line = await this.next();
    if (line === undefined) return [];
    const batch = this.batch;
    const from = this.index - 1;
    this.index = batch.length;
    // A whole batch is handed on as the splitter made it (no longer its to change): no copy per batch.
    return from === 0 ? batch : batch.slice(from);
  }
}
