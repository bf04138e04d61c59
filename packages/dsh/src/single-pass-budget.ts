/**
 * What buffering one event for a single-pass import is estimated to cost: its share of the source
 * line plus this. Measured on V4 and V0 (packed) logs: the parsed events take the line bytes plus
 * 280-350 bytes per event (the event objects, the metadata, the id string).
 */
export const bufferedEventOverheadBytes = 384;

/** Lines read before the tail's size is projected from the share of a raw file read so far. */
export const projectionWarmUpBytes = 1024 * 1024;

/**
 * Decides, event by event, whether the validated tail of a file still fits the memory it may take
 * to be appended from the read that validated it. A raw file larger than the budget never fits.
 * For a raw file the estimate is also projected to the whole file from the share read so far, so
 * a file that will not fit stops buffering early instead of at the budget. Once over, it stays
 * over: the importer then reads the file a second time.
 */
export class SinglePassBudget {
  private bytes = 0;
  private lineBytes = 0;
  private lastLine = -1;
  private open: boolean;

  /** `fileBytes`: the size of a raw file (undefined when unknown, e.g. zstd). */
  constructor(
    private readonly budgetBytes: number,
    private readonly fileBytes: number | undefined,
  ) {
    this.open = budgetBytes > 0 && (fileBytes === undefined || fileBytes <= budgetBytes);
  }

  /** Count one event of the tail (the members of a packed row share their line); false once over. */
  admit(line: number, lineBytes: number): boolean {
    if (!this.open) return false;
    if (line !== this.lastLine) {
      this.bytes += lineBytes;
      this.lineBytes += lineBytes;
      this.lastLine = line;
    }
    this.bytes += bufferedEventOverheadBytes;
    const projected =
      this.fileBytes !== undefined && this.lineBytes >= projectionWarmUpBytes
        ? (this.bytes * this.fileBytes) / this.lineBytes
        : 0;
    this.open = this.bytes <= this.budgetBytes && projected <= this.budgetBytes;
    return this.open;
  }
}
