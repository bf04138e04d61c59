import { isAscii, isUtf8 } from 'node:buffer';
import { isBlankRange } from './blank-line';

/**
 * What a line's bytes were proven to be, checked with the rest of its read chunk: so its text
 * decodes without a second check. ASCII is valid UTF-8 whose text is its bytes one by one.
 */
export type ProvenText = 'unproven' | 'utf8' | 'ascii';

/** What a run of bytes is proven to be: ASCII first (the usual log, and as cheap to check), else UTF-8. */
export const provenTextOf = (bytes: Uint8Array): ProvenText =>
  isAscii(bytes) ? 'ascii' : isUtf8(bytes) ? 'utf8' : 'unproven';

/**
 * One complete line (its `\n` seen), numbered from 1, without the newline: a range of the buffer
 * it was read into, so splitting makes no buffer per line. Only a line across two reads is
 * copied, into a buffer of its own.
 */
export class SplitLine {
  constructor(
    readonly line: number,
    /** The buffer the line lies in: its read chunk, or its own for a line assembled across reads. */
    readonly chunk: Buffer,
    readonly start: number,
    readonly end: number,
    /** What `chunk[start, end)` was proven to be (see `ProvenText`). */
    readonly text: ProvenText = 'unproven',
    /** The line was longer than `maxLineBytes`; its bytes were discarded (the range is empty). */
    readonly overlongBytes: number | undefined = undefined,
    /**
     * This entry stands for `blankRun` blank lines in a row, from `line` on (the range is empty):
     * a flood of blank lines costs one entry per run, not one per line (docs/rules.md#blank-lines).
     */
    readonly blankRun: number | undefined = undefined,
  ) {}

  /** The line's length in bytes (0 for an overlong line or a blank run). */
  get length(): number {
    return this.end - this.start;
  }

  /** A view of the line's bytes, made when asked for: the reader itself works on the range. */
  get bytes(): Buffer {
    return this.chunk.subarray(this.start, this.end);
  }
}

const noBytes = Buffer.alloc(0);

export interface LineSplitEnd {
  /** Bytes after the last `\n`: a torn tail, dropped. */
  readonly tornTail: { readonly line: number; readonly bytes: number } | undefined;
  readonly lines: number;
  readonly largestLineBytes: number;
  /** The most bytes the splitter held at once: stays near the largest line, whatever the file size. */
  readonly peakBufferedBytes: number;
}

export interface LineSplitOptions {
  /** Lines longer than this are not buffered (default 256 MiB, below V8's string limit). */
  readonly maxLineBytes?: number;
}

export const defaultMaxLineBytes = 256 * 1024 * 1024;
const newline = 0x0a;

/** Lines handed on at once: a read buffer holds thousands, which would all be alive together. */
const splitBatchLines = 256;

/**
 * Split a byte stream into lines, holding only the line being assembled. Lines come in batches
 * (the complete lines of each read chunk), so a consumer pays one await per chunk, not per line.
 */
export async function* splitLines(
  source: AsyncIterable<Uint8Array>,
  options: LineSplitOptions = {},
): AsyncGenerator<readonly SplitLine[], LineSplitEnd> {
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let lineNumber = 0;
  let largestLineBytes = 0;
  let peakBufferedBytes = 0;

  /** The line that ends at `end` of `bytes` and began in an earlier read (or is overlong): the one copy. */
  const assembledLine = (bytes: Buffer, end: number): SplitLine => {
    const total = pendingBytes + end;
    let line: SplitLine;
    if (overlong) line = new SplitLine(lineNumber, noBytes, 0, 0, 'unproven', total);
    else {
      const joined = Buffer.concat([...pending, bytes.subarray(0, end)], total);
      line = new SplitLine(lineNumber, joined, 0, total, provenTextOf(joined));
    }
    pending = [];
    pendingBytes = 0;
    overlong = false;
    return line;
  };

  for await (const chunk of source) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    peakBufferedBytes = Math.max(peakBufferedBytes, pendingBytes + bytes.length);
    let start = 0;
    let batch: SplitLine[] = [];
    let end = bytes.indexOf(newline);
    if (end !== -1 && (pendingBytes > 0 || overlong)) {
      lineNumber += 1;
      if (!overlong && pendingBytes + end > maxLineBytes) overlong = true;
      largestLineBytes = Math.max(largestLineBytes, pendingBytes + end);
      batch.push(assembledLine(bytes, end));
      start = end + 1;
      end = bytes.indexOf(newline, start);
    }
    // The complete lines of this read, checked as one range: valid UTF-8 in all is valid in each.
    const last = bytes.lastIndexOf(newline);
    const text: ProvenText = last > start ? provenTextOf(bytes.subarray(start, last)) : 'unproven';
    let blankStart = 0;
    let blankLines = 0;
    for (; end !== -1; end = bytes.indexOf(newline, start)) {
      lineNumber += 1;
      const length = end - start;
      if (length > largestLineBytes) largestLineBytes = length;
      if (length <= maxLineBytes && isBlankRange(bytes, start, end)) {
        if (blankLines === 0) blankStart = lineNumber;
        blankLines += 1;
        start = end + 1;
        continue;
      }
      if (blankLines > 0) {
        batch.push(new SplitLine(blankStart, noBytes, 0, 0, 'unproven', undefined, blankLines));
        blankLines = 0;
        if (batch.length >= splitBatchLines) {
          yield batch;
          batch = [];
        }
      }
      batch.push(
        length > maxLineBytes
          ? new SplitLine(lineNumber, noBytes, 0, 0, 'unproven', length)
          : new SplitLine(lineNumber, bytes, start, end, text),
      );
      start = end + 1;
      if (batch.length >= splitBatchLines) {
        // Handed on while young: a read buffer's worth of line objects held at once outlives scavenges.
        yield batch;
        batch = [];
      }
    }
    if (blankLines > 0) batch.push(new SplitLine(blankStart, noBytes, 0, 0, 'unproven', undefined, blankLines));
    if (start < bytes.length) {
      const rest = bytes.subarray(start);
      if (!overlong && pendingBytes + rest.length > maxLineBytes) {
        overlong = true;
        pending = [];
      }
      if (!overlong) pending.push(rest);
      pendingBytes += rest.length;
    }
    if (batch.length > 0) yield batch;
  }
  return {
    tornTail: pendingBytes > 0 ? { line: lineNumber + 1, bytes: pendingBytes } : undefined,
    lines: lineNumber,
    largestLineBytes: Math.max(largestLineBytes, pendingBytes),
    peakBufferedBytes,
  };
}
