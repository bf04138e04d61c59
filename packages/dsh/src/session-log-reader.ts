import type { EventId, SessionId } from '@teamlog/events';
import { EventLineProcessor, type InvalidTeamRecord, type SessionLogEvent, parseLine } from './event-line-processor';
import { type ParsedHeader, parseHeaderLine } from './header-reader';
import { LineCursor } from './line-cursor';
import { type LogByteSource, openLogBytes } from './log-byte-source';
import { type LineSplitEnd, type SplitLine, defaultMaxLineBytes, splitLines } from './line-splitter';
import { defaultMaxJsonDepth, tooDeepPath } from './json-depth';
import type { Recovery } from './recovery-scanner';
import type { Compression } from './session-file-name';
import { SessionLogRejected, notASessionLog } from './session-log-errors';
import { defaultZstdDecodeLimits } from './zstd-decode-limits';
import { isZstdError } from './zstd-errors';

export type { SessionLogEvent } from './event-line-processor';

export interface SessionLogHead extends ParsedHeader {
  readonly file: string;
  readonly compression: Compression;
  readonly sessionId: SessionId;
  /** A snapshot fixture without seq/time (docs/rules.md#snapshot-fixtures): seqs are assigned by position. */
  readonly normalised: boolean;
  /** No complete line follows the header, so `normalised` was not decided by an event line. */
  readonly headerOnly: boolean;
}

export interface SessionLogSummary {
  readonly head: SessionLogHead;
  /** Events kept (after recovery). */
  readonly events: number;
  readonly recovery: Recovery | null;
  /** Events inherited from the parent of a seeded fork (V0/V1 `seedLength`; V2+ the last inherited end-seed). */
  readonly inheritedCount: number;
  /** Types neither in the catalog nor among the known types (docs/rules.md#known-event-types), and not marked `ignorable`. */
  readonly unknownTypes: readonly string[];
  readonly lines: number;
  readonly largestLineBytes: number;
  /** The most bytes held while splitting lines: bounded by the largest line, not the file. */
  readonly peakBufferedBytes: number;
  /** Reading stopped at `maxEvents`; the rest of the file was not read. */
  readonly stoppedEarly: boolean;
  /** Events of a released legacy V0 shape (see legacy-v0-shapes.ts), kept verbatim as `recognised`. */
  readonly legacyShapes: number;
  /** Team records that do not decode: kept verbatim, reported by the team view as its failure. */
  readonly invalidTeamRecords: readonly InvalidTeamRecord[];
}

export interface ReadSessionLogOptions {
  /** Lines longer than this reject the file (default 256 MiB). */
  readonly maxLineBytes?: number;
  /** JSON nested deeper than this rejects the file (default 512, the envelope counts). */
  readonly maxJsonDepth?: number;
  /** Stop after this many kept events (the importer's second pass). */
  readonly maxEvents?: number;
  /** A zstd frame that can decode to more than this rejects the file (default 512 MiB; docs/rules.md#zstd-decode-bound). */
  readonly maxFrameBytes?: number;
  /** A zstd stream that decodes to more than this rejects the file (default 64 GiB). */
  readonly maxDecodedBytes?: number;
  /**
   * For a store that keeps no payload (`EventStore.ignoresDataText`): the ids of the stream it
   * takes the events into. Given, a packed row's members are visited as `CompactPackedMember`s,
   * each at once the event to append (see compact-packed-member.ts).
   */
  readonly packedMemberIds?: (seq: number) => EventId;
}

/** Internal to the importer: see `scanFingerprintedLog`. */
interface PassOptions extends TrustedReadOptions {
  readonly payloads?: 'strict' | 'trusted';
  /** The size of each read (default `readChunkBytes`). */
  readonly chunkBytes?: number;
  /** The file's chunks, opened ahead of the pass (log-prefetch.ts); read once, by this pass. */
  readonly opened?: Promise<AsyncGenerator<Buffer>>;
}

/** A trusted read's options: `trustedTeamRecords` when the strict read kept no invalid Team record. */
export interface TrustedReadOptions extends ReadSessionLogOptions {
  readonly trustedTeamRecords?: boolean;
}

type Item =
  | { readonly kind: 'head'; readonly head: SessionLogHead }
  | { readonly kind: 'events'; readonly events: readonly SessionLogEvent[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A snapshot fixture's event lines carry neither `seq` nor a packed row's `seq0`. */
const looksNormalised = (value: unknown): boolean => isRecord(value) && !('seq' in value) && !('seq0' in value);

const asRejection = (file: string, error: unknown): unknown => {
  if (error instanceof SessionLogRejected) return error;
  if (isZstdError(error, 'CorruptZstdFrame'))
    return new SessionLogRejected('corrupt-frame', file, error.message, { cause: error });
  if (isZstdError(error, 'ZstdOverLimit'))
    return new SessionLogRejected('over-limit', file, error.message, { cause: error });
  if (error instanceof Error && 'code' in error)
    return new SessionLogRejected('unreadable', file, error.message, { cause: error });
  return error;
};

/** Events handed on at once: few enough that they are visited before the young generation fills. */
const visitBatchEvents = 256;

/**
 * The reads of a pass that wants only the head (the header and the next line): an import opens a
 * log for its head twice before the pass that reads it all, and a whole read chunk (and the one
 * read ahead of it) for two lines was most of a short log read again.
 */
export const headReadChunkBytes = 64 * 1024;

/** The one streaming pass every public read goes through: the head first, then the kept events in batches. */
async function* streamLog(file: string, options: PassOptions): AsyncGenerator<Item, SessionLogSummary> {
  let source: LogByteSource;
  try {
    source = await openLogBytes(
      file,
      {
        maxFrameBytes: options.maxFrameBytes ?? defaultZstdDecodeLimits.maxFrameBytes,
        maxDecodedBytes: options.maxDecodedBytes ?? defaultZstdDecodeLimits.maxDecodedBytes,
      },
      options.chunkBytes,
      options.opened,
    );
  } catch (error) {
    throw asRejection(file, error);
  }
  const lines = splitLines(source.bytes, options);
  try {
    return yield* readLines(file, source, lines, options);
  } catch (error) {
    throw asRejection(file, error);
  } finally {
    await lines.return(undefined as unknown as LineSplitEnd);
  }
}

async function* readLines(
  file: string,
  source: LogByteSource,
  batches: AsyncGenerator<readonly SplitLine[], LineSplitEnd>,
  options: PassOptions,
): AsyncGenerator<Item, SessionLogSummary> {
  const cursor = new LineCursor(batches);
  const first = await cursor.next();
  if (first === undefined)
    throw notASessionLog(
      file,
      cursor.end?.tornTail === undefined ? 'the file is empty' : 'the file has no complete first line',
    );
  if (first.overlongBytes !== undefined) throw notASessionLog(file, `the first line has ${first.overlongBytes} bytes`);
  const limits = {
    maxLineBytes: options.maxLineBytes ?? defaultMaxLineBytes,
    maxJsonDepth: options.maxJsonDepth ?? defaultMaxJsonDepth,
  };
  const parsed = parseHeaderLine(file, first.bytes);
  const headerTooDeep = tooDeepPath(parsed.rawHeader, limits.maxJsonDepth);
  if (headerTooDeep !== undefined) {
    throw new SessionLogRejected(
      'over-limit',
      file,
      `nests deeper than ${limits.maxJsonDepth} levels, the reader's limit; nothing was imported`,
      { line: 1, path: headerTooDeep },
    );
  }
  const lines = await cursor.nextBatch();
  const second = lines[0] === undefined ? undefined : parseLine(lines[0]).value;
  // A log with no event line says nothing about normalisation (a real log starts header-only too):
  // it is not taken as normalised, so a later copy with events decides (docs/historical-logs.md).
  const normalised = second === undefined ? false : looksNormalised(second);
  const head: SessionLogHead = {
    ...parsed,
    file,
    compression: source.compression,
    sessionId: parsed.header.id,
    normalised,
    headerOnly: second === undefined,
  };
  yield { kind: 'head', head };

  const processor = new EventLineProcessor(
    file,
    parsed.formatVersion,
    normalised,
    options.payloads,
    limits,
    options.trustedTeamRecords === true,
    options.packedMemberIds,
  );
  let emitted = 0;
  const summary = (
    tail: Parameters<EventLineProcessor['finish']>[0],
    end: Pick<LineSplitEnd, 'lines' | 'largestLineBytes' | 'peakBufferedBytes'>,
    stoppedEarly: boolean,
  ): SessionLogSummary => ({
    head,
    events: stoppedEarly ? emitted : processor.keptEvents,
    recovery: stoppedEarly ? null : processor.finish(tail),
    inheritedCount: processor.inheritedCount(parsed.header.seedLength),
    unknownTypes: processor.unknownTypes,
    legacyShapes: processor.legacyShapes,
    invalidTeamRecords: processor.invalidTeamRecords,
    lines: end.lines,
    largestLineBytes: end.largestLineBytes,
    peakBufferedBytes: end.peakBufferedBytes,
    stoppedEarly,
  });

  const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
  for (let batch = lines; batch.length > 0; batch = await cursor.nextBatch()) {
    let accepted: SessionLogEvent[] = [];
    // Indexed, not for-of: a generator's for-of made an iterator result per line (40 bytes an event).
    for (let index = 0; index < batch.length; index += 1) {
      const line = batch[index] as SplitLine;
      processor.processInto(line, accepted);
      if (emitted + accepted.length >= maxEvents) {
        // A packed row's members share a line: only those up to the limit count.
        accepted.length = maxEvents - emitted;
        emitted = maxEvents;
        yield { kind: 'events', events: accepted };
        return summary(undefined, { lines: line.line, largestLineBytes: 0, peakBufferedBytes: 0 }, true);
      }
      if (accepted.length >= visitBatchEvents) {
        // Handed on while young: a read buffer's worth of parsed events held at once outlives scavenges.
        emitted += accepted.length;
        yield { kind: 'events', events: accepted };
        accepted = [];
      }
    }
    emitted += accepted.length;
    if (accepted.length > 0) yield { kind: 'events', events: accepted };
  }
  const end = cursor.end as LineSplitEnd;
  const cut = source.zstdEnd()?.incompleteFrame === true;
  const tail = cut
    ? { line: end.tornTail?.line ?? end.lines + 1, reason: 'incomplete-frame' as const }
    : end.tornTail === undefined
      ? undefined
      : { line: end.tornTail.line, reason: 'torn-tail' as const };
  return summary(tail, end, false);
}

/**
 * A session log file opened for reading. `events()` and `scan()` each stream the file again from
 * the start, so memory stays bounded by the largest line whatever the file size.
 */
export class SessionLogReader {
  private constructor(
    readonly head: SessionLogHead,
    private readonly options: ReadSessionLogOptions,
  ) {}

  /** Read the header (and enough of the next line to tell a normalised fixture). */
  static async open(file: string, options: ReadSessionLogOptions = {}): Promise<SessionLogReader> {
    const stream = streamLog(file, { ...options, chunkBytes: headReadChunkBytes });
    try {
      const first = await stream.next();
      if (first.done === true || first.value.kind !== 'head') throw notASessionLog(file, 'no header');
      return new SessionLogReader(first.value.head, options);
    } finally {
      await stream.return(undefined as unknown as SessionLogSummary);
    }
  }

  /** The kept events in seq order; the generator's return value is the summary. Throws SessionLogRejected. */
  async *events(options: ReadSessionLogOptions = {}): AsyncGenerator<SessionLogEvent, SessionLogSummary> {
    const stream = streamLog(this.head.file, { ...this.options, ...options });
    for (let item = await stream.next(); ; item = await stream.next()) {
      if (item.done === true) return item.value;
      if (item.value.kind === 'events') yield* item.value.events;
    }
  }

  /** Read the whole file, calling `visit` for each kept event, in order (awaited when it returns a promise). */
  scan(
    visit?: (event: SessionLogEvent) => void | Promise<void>,
    options: ReadSessionLogOptions = {},
  ): Promise<SessionLogSummary> {
    return scanStream(streamLog(this.head.file, { ...this.options, ...options }), visit);
  }
}

const scanStream = async (
  stream: AsyncGenerator<Item, SessionLogSummary>,
  visit?: (event: SessionLogEvent) => void | Promise<void>,
): Promise<SessionLogSummary> => {
  try {
    for (let item = await stream.next(); ; item = await stream.next()) {
      if (item.done === true) return item.value;
      if (item.value.kind !== 'events' || visit === undefined) continue;
      const { events } = item.value;
      // Indexed, not for-of: an async function's for-of made an iterator result per event.
      for (let index = 0; index < events.length; index += 1) {
        const visited = visit(events[index] as SessionLogEvent);
        if (visited !== undefined) await visited;
      }
    }
  } finally {
    await stream.return(undefined as unknown as SessionLogSummary);
  }
};

/** One streaming pass that shows the head to `onHead` (which may throw to stop it) before visiting the events. */
const scanFromHead = async (
  file: string,
  onHead: (head: SessionLogHead) => void,
  visit: (event: SessionLogEvent) => void | Promise<void>,
  options: PassOptions,
): Promise<SessionLogSummary> => {
  const stream = streamLog(file, options);
  const first = await stream.next();
  if (first.done === true || first.value.kind !== 'head') {
    await stream.return(undefined as unknown as SessionLogSummary);
    throw notASessionLog(file, 'no header');
  }
  try {
    onHead(first.value.head);
  } catch (error) {
    await stream.return(undefined as unknown as SessionLogSummary);
    throw error;
  }
  return scanStream(stream, visit);
};

/**
 * Read a whole log strictly, as `scan` does, showing its head to `onHead` first: a caller that
 * holds the head of an earlier read checks it is the same without opening the file once more.
 * `opened`: the file's chunks opened ahead (log-prefetch.ts), read instead of opening it here.
 * Not exported from the package (the importer's validating read).
 */
export const scanLogFromHead = (
  file: string,
  onHead: (head: SessionLogHead) => void,
  visit: (event: SessionLogEvent) => void | Promise<void>,
  options: ReadSessionLogOptions,
  opened?: Promise<AsyncGenerator<Buffer>>,
): Promise<SessionLogSummary> =>
  scanFromHead(file, onHead, visit, opened === undefined ? options : { ...options, opened });

/**
 * Read a log whose event lines a strict read has already accepted, without decoding catalog
 * payloads again (the summary's tallies of strict decoding are empty). Not exported from the
 * package: the importer's second pass calls it and proves, by chunk fingerprints, that every line
 * it keeps is one the strict first pass validated. `onHead` sees the header first, so the caller
 * can check it is the one validated (the header decides how lines decode).
 */
export const scanFingerprintedLog = (
  file: string,
  onHead: (head: SessionLogHead) => void,
  visit: (event: SessionLogEvent) => void | Promise<void>,
  options: TrustedReadOptions,
): Promise<SessionLogSummary> => scanFromHead(file, onHead, visit, { ...options, payloads: 'trusted' });

export const openSessionLog = (file: string, options: ReadSessionLogOptions = {}): Promise<SessionLogReader> =>
  SessionLogReader.open(file, options);

/** Validate a whole log without keeping its events; throws SessionLogRejected. */
export const scanSessionLog = async (file: string, options: ReadSessionLogOptions = {}): Promise<SessionLogSummary> =>
  (await openSessionLog(file, options)).scan(undefined, options);

const noLineBytes = new Uint8Array(0);

/** Read a whole log into memory (for small logs, tests and tools; large logs: use `openSessionLog`). */
export const readSessionLog = async (
  file: string,
  options: ReadSessionLogOptions = {},
): Promise<{
  readonly head: SessionLogHead;
  readonly events: readonly SessionLogEvent[];
  readonly summary: SessionLogSummary;
}> => {
  const reader = await openSessionLog(file, options);
  const events: SessionLogEvent[] = [];
  const summary = await reader.scan(({ line, event, eventClass, catalogChecked }) => {
    // Without the line bytes: they are ranges of whole read buffers, which would all stay alive.
    events.push({ line, event, eventClass, lineBytes: noLineBytes, lineLength: 0, catalogChecked });
  }, options);
  return { head: reader.head, events, summary };
};
