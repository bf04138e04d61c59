import { isBlankRange } from './blank-line';

/** One complete line (its `\n` seen), numbered from 1, without the newline. */
export interface SplitLine {
  readonly line: number;
  readonly bytes: Buffer;
  /** The line was longer than `maxLineBytes`; its bytes were discarded (`bytes` is empty). */
  readonly overlongBytes?: number;
  /**
   * This entry stands for `blankRun` blank lines in a row, from `line` on (`bytes` is empty):
   * a flood of blank lines costs one entry per run, not one per line (docs/rules.md#blank-lines).
   */
  readonly blankRun?: number;
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

  const finishLine = (last: Buffer, lastLength: number): SplitLine => {
    lineNumber += 1;
    const total = pendingBytes + lastLength;
    largestLineBytes = Math.max(largestLineBytes, total);
    const line: SplitLine = overlong
      ? { line: lineNumber, bytes: Buffer.alloc(0), overlongBytes: total }
      : { line: lineNumber, bytes: pending.length === 0 ? last : Buffer.concat([...pending, last], total) };
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
    let blankRun: { line: number; bytes: Buffer; blankRun: number } | undefined;
    for (let end = bytes.indexOf(newline, start); end !== -1; end = bytes.indexOf(newline, start)) {
      if (pendingBytes === 0 && end - start <= maxLineBytes && isBlankRange(bytes, start, end)) {
        lineNumber += 1;
        largestLineBytes = Math.max(largestLineBytes, end - start);
        if (blankRun !== undefined && batch[batch.length - 1] === blankRun) blankRun.blankRun += 1;
        else batch.push((blankRun = { line: lineNumber, bytes: noBytes, blankRun: 1 }));
        start = end + 1;
        continue;
      }
      if (!overlong && pendingBytes + (end - start) > maxLineBytes) overlong = true;
      batch.push(finishLine(overlong ? Buffer.alloc(0) : bytes.subarray(start, end), end - start));
      start = end + 1;
      if (batch.length >= splitBatchLines) {
        // Handed on while young: a read buffer's worth of line objects held at once outlives scavenges.
        yield batch;
        batch = [];
      }
    }
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
