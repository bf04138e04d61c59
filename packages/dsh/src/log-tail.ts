import { promises as fs } from 'node:fs';
import { EventLineProcessor, type SessionLogEvent } from './event-line-processor';
import { jsonEqual } from './json-equal';
import { SplitLine, defaultMaxLineBytes } from './line-splitter';
import { readChunkBytes } from './log-byte-source';
import type { Recovery } from './recovery-scanner';
import { SessionLogRejected } from './session-log-errors';
import type { SessionLogHead } from './session-log-reader';
import { completeFramesLength } from './zstd-complete-frames';
import { decodeZstdFrames } from './zstd-frame-decoder';
import { corruptZstdFrame, isZstdError } from './zstd-errors';

const newline = 0x0a;
const noBytes = Buffer.alloc(0);

/** What one read of a tail consumed. */
export interface TailRead {
  /** Raw bytes of the file consumed so far (complete lines; for zstd, complete frames). */
  readonly offset: number;
  /** Events kept by this read. */
  readonly events: number;
  /** The read stopped at a slice's end (`enough` said so) with whole units of the file still unread. */
  readonly more: boolean;
}

const readFully = async (handle: fs.FileHandle, position: number, length: number): Promise<Buffer> => {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
};

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

const decodeFrames = async (frames: Uint8Array): Promise<Buffer> => {
  const parts: Uint8Array[] = [];
  for await (const part of decodeZstdFrames(once(frames))) parts.push(part);
  return Buffer.concat(parts);
};

/**
 * One session log read as it grows: each `read` consumes only what was appended since the last
 * one, and only whole units of it (complete lines; for zstd, complete frames), so a line or frame
 * the writer is still writing is left for the next read instead of being taken for a torn tail.
 * The lines go through the same strict line processor as a whole-file read (recovery rule, packed
 * rows, catalog payloads), kept alive between reads, so the events are the ones a read of the
 * final file keeps. No file descriptor is held between reads.
 *
 * After a read that threw (or whose `visit` threw) the tail's state is undefined: discard it.
 */
export class LogTail {
  private offset = 0;
  private lines = 0;
  private frames = 0;
  /** zstd only: decoded bytes after the last newline of the frames read (a line spanning frames). */
  private pending: Buffer = noBytes;
  private broken = false;
  private readonly processor: EventLineProcessor;

  constructor(
    private readonly head: SessionLogHead,
    private readonly maxLineBytes: number = defaultMaxLineBytes,
  ) {
    this.processor = new EventLineProcessor(head.file, head.formatVersion, head.normalised);
  }

  get file(): string {
    return this.head.file;
  }

  get normalised(): boolean {
    return this.head.normalised;
  }

  /** The head was read while the file held its header alone (normalisation not decided yet). */
  get headerOnly(): boolean {
    return this.head.headerOnly;
  }

  /** A read threw: the tail's state is undefined, discard it. */
  get failed(): boolean {
    return this.broken;
  }

  /** Raw bytes consumed so far. */
  get consumed(): number {
    return this.offset;
  }

  /** Events kept so far (the next seq the log must bring). */
  get keptEvents(): number {
    return this.processor.keptEvents;
  }

  /** Where the recovery rule stopped accepting events (the rest of the log is dropped), if it did. */
  get stopped(): Recovery | null {
    return this.processor.finish(undefined);
  }

  /**
   * Read what the file holds past the last read, up to its current end, and hand the events to
   * `visit` (one call per read chunk, awaited before the next). Throws SessionLogRejected when
   * the new content is corrupt (a damaged history, an invalid event, a corrupt frame, a header
   * that changed, a line longer than the reader's limit). A tail that failed reads nothing more.
   * `enough` is asked after each chunk read: when it says so the read stops there (a slice: the
   * follower gives the other logs their turn and comes back, `more` in the result).
   */
  async read(
    visit: (events: readonly SessionLogEvent[]) => Promise<void>,
    enough: () => boolean = () => false,
  ): Promise<TailRead> {
    if (this.broken)
      throw new SessionLogRejected(
        'unreadable',
        this.head.file,
        'an earlier read of this tail failed; open the log again',
      );
    const handle = await fs.open(this.head.file, 'r');
    let events = 0;
    let chunks = 0;
    let more = false;
    try {
      const { size } = await handle.stat();
      let want = readChunkBytes;
      while (this.offset < size) {
        if (chunks > 0 && enough()) {
          more = true;
          break;
        }
        const buffer = await readFully(handle, this.offset, Math.min(want, size - this.offset));
        const whole = this.wholeUnits(buffer);
        if (whole === 0) {
          if (this.offset + buffer.length >= size) break; // the writer is mid-write: read it when it is complete
          const raw = this.head.compression === 'none';
          if (raw && buffer.length > this.maxLineBytes) {
            throw new SessionLogRejected(
              'unreadable',
              this.head.file,
              `line ${this.lines + 1} is longer than the reader's limit of ${this.maxLineBytes} bytes; the log is not followed past it`,
              { line: this.lines + 1 },
            );
          }
          want = raw ? Math.min(want * 2, this.maxLineBytes + 1) : want * 2;
          continue;
        }
        const kept = this.process(await this.decoded(buffer.subarray(0, whole)));
        this.offset += whole;
        chunks += 1;
        want = readChunkBytes;
        events += kept.length;
        if (kept.length > 0) await visit(kept);
      }
    } catch (error) {
      this.broken = true;
      if (isZstdError(error, 'CorruptZstdFrame'))
        throw new SessionLogRejected('corrupt-frame', this.head.file, error.message, { cause: error });
      throw error;
    } finally {
      await handle.close();
    }
    return { offset: this.offset, events, more };
  }

  /** Bytes at the start of `buffer` that are whole units: through the last newline, or complete frames. */
  private wholeUnits(buffer: Buffer): number {
    if (this.head.compression === 'none') return buffer.lastIndexOf(newline) + 1;
    return completeFramesLength(buffer, this.offset, this.frames).bytes;
  }

  /** The text of whole units: raw as it is; zstd decoded, after the partial line the previous frames left. */
  private async decoded(units: Buffer): Promise<Buffer> {
    if (this.head.compression === 'none') return units;
    let text: Buffer;
    try {
      text = await decodeFrames(units);
    } catch (error) {
      // The decoder counts from the start of what it was given: say where in the file.
      if (isZstdError(error, 'CorruptZstdFrame'))
        throw corruptZstdFrame(
          this.frames + error.fault.frameIndex,
          this.offset + error.fault.offset,
          error.fault.detail,
        );
      throw error;
    }
    this.frames += completeFramesLength(units).frames;
    return this.pending.length === 0 ? text : Buffer.concat([this.pending, text]);
  }

  private process(text: Buffer): SessionLogEvent[] {
    const kept: SessionLogEvent[] = [];
    let start = 0;
    for (let end = text.indexOf(newline, start); end !== -1; end = text.indexOf(newline, start)) {
      const length = end - start;
      this.lines += 1;
      const line =
        length > this.maxLineBytes
          ? new SplitLine(this.lines, noBytes, 0, 0, 'unproven', length)
          : new SplitLine(this.lines, text, start, end);
      start = end + 1;
      if (this.lines === 1) this.checkHeader(line);
      else kept.push(...this.processor.process(line));
    }
    // Raw text is cut at its last newline; decoded frames may end inside a line.
    this.pending = start < text.length ? Buffer.from(text.subarray(start)) : noBytes;
    return kept;
  }

  /** Line 1 must still be the header the log was opened with (it decides how lines decode). */
  private checkHeader(line: SplitLine): void {
    let value: unknown;
    try {
      value = JSON.parse(line.bytes.toString('utf8'));
    } catch {
      value = undefined;
    }
    if (!jsonEqual(value, this.head.rawHeader)) {
      throw new SessionLogRejected(
        'unreadable',
        this.head.file,
        'its header line differs from the one it was opened with (the file was rewritten)',
        { line: 1 },
      );
    }
  }
}
