import { isLeft } from 'fp-ts/Either';
import { EventClass, SessionId, classifyEventType, decodeSessionEvent, isPlaceholderId } from '@teamlog/events';
import { decodeLegacyV0Shape, isLegacyV0Shape } from './legacy-v0-shapes';
import { ParsedHeader, parseHeaderLine } from './header-reader';
import { LogByteSource, openLogBytes } from './log-byte-source';
import { LineSplitEnd, SplitLine, splitLines } from './line-splitter';
import { LogicalEvent } from './logical-event';
import { Recovery, RecordOutcome, RecoveryScanner } from './recovery-scanner';
import { Compression } from './session-file-name';
import { NotASessionLog, SessionLogRejected } from './session-log-errors';
import { decodeStorageRecord } from './storage-record-decoder';
import { CorruptZstdFrame } from './zstd-frame-decoder';

export interface SessionLogHead extends ParsedHeader {
  readonly file: string;
  readonly compression: Compression;
  readonly sessionId: SessionId;
  /** A snapshot fixture without seq/time (reference §3.2): seqs are assigned by position. */
  readonly normalised: boolean;
}

export interface SessionLogEvent {
  /** The physical line (header = 1); the members of a packed row share their row's line. */
  readonly line: number;
  readonly event: LogicalEvent;
  readonly eventClass: EventClass;
}

export interface SessionLogSummary {
  readonly head: SessionLogHead;
  /** Events kept (after recovery). */
  readonly events: number;
  readonly recovery: Recovery | null;
  /** Events inherited from the parent of a seeded fork (V0/V1 `seedLength`; V2+ the last inherited end-seed). */
  readonly inheritedCount: number;
  /** Types neither in the catalog nor in the reference, and not marked `ignorable`. */
  readonly unknownTypes: readonly string[];
  readonly lines: number;
  readonly largestLineBytes: number;
  /** The most bytes held while splitting lines: bounded by the largest line, not the file. */
  readonly peakBufferedBytes: number;
  /** Reading stopped at `maxEvents`; the rest of the file was not read. */
  readonly stoppedEarly: boolean;
  /** Events of a released legacy V0 shape (see legacy-v0-shapes.ts), kept verbatim as `recognised`. */
  readonly legacyShapes: number;
}

export interface ReadSessionLogOptions {
  readonly maxLineBytes?: number;
  /** Stop after this many kept events (the importer's second pass). */
  readonly maxEvents?: number;
}

type Item = { readonly kind: 'head'; readonly head: SessionLogHead } | ({ readonly kind: 'event' } & SessionLogEvent);

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const parseLine = (line: SplitLine): { value?: unknown; problem?: RecordOutcome } => {
  if (line.overlongBytes !== undefined) {
    return { problem: { kind: 'problem', reason: 'line-too-long', detail: `the line has ${line.overlongBytes} bytes, more than the reader's limit` } };
  }
  let text: string;
  try {
    text = utf8.decode(line.bytes);
  } catch {
    return { problem: { kind: 'problem', reason: 'unparsable-line', detail: 'the line is not valid UTF-8' } };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: { kind: 'problem', reason: 'unparsable-line', detail: `the line is not JSON (${error instanceof Error ? error.message : String(error)})` } };
  }
};

/** A snapshot fixture's event lines carry neither `seq` nor a packed row's `seq0`. */
const looksNormalised = (value: unknown): boolean => isRecord(value) && !('seq' in value) && !('seq0' in value);

const asRejection = (file: string, error: unknown): unknown => {
  if (error instanceof SessionLogRejected) return error;
  if (error instanceof CorruptZstdFrame) return new SessionLogRejected('corrupt-frame', file, error.message, { cause: error });
  if (error instanceof Error && 'code' in error) return new SessionLogRejected('unreadable', file, error.message, { cause: error });
  return error;
};

/** The one streaming pass every public read goes through: the head first, then each kept event. */
async function* streamLog(file: string, options: ReadSessionLogOptions): AsyncGenerator<Item, SessionLogSummary> {
  let source: LogByteSource;
  try {
    source = await openLogBytes(file);
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
  lines: AsyncGenerator<SplitLine, LineSplitEnd>,
  options: ReadSessionLogOptions,
): AsyncGenerator<Item, SessionLogSummary> {
  const first = await lines.next();
  if (first.done === true) throw new NotASessionLog(file, first.value.tornTail === undefined ? 'the file is empty' : 'the file has no complete first line');
  if (first.value.overlongBytes !== undefined) throw new NotASessionLog(file, `the first line has ${first.value.overlongBytes} bytes`);
  const parsed = parseHeaderLine(file, first.value.bytes);
  let next = await lines.next();
  const secondValue = next.done === true ? undefined : parseLine(next.value).value;
  const normalised = next.done === true || secondValue === undefined ? isPlaceholderId(parsed.header.id) : looksNormalised(secondValue);
  const head: SessionLogHead = { ...parsed, file, compression: source.compression, sessionId: parsed.header.id, normalised };
  yield { kind: 'head', head };

  const scanner = new RecoveryScanner();
  const unknownTypes = new Set<string>();
  let inheritedCut: number | undefined;
  let kept = 0;
  let legacyShapes = 0;
  for (; next.done !== true; next = await lines.next()) {
    const line = next.value;
    const { value, problem } = parseLine(line);
    let outcome: RecordOutcome;
    if (problem !== undefined) outcome = problem;
    else {
      const decoded = decodeStorageRecord(value, { formatVersion: parsed.formatVersion, normalised, nextSeq: scanner.expectedSeq });
      const rawType = isRecord(value) && typeof value['type'] === 'string' ? value['type'] : undefined;
      outcome = isLeft(decoded)
        ? { kind: 'problem', reason: 'unparsable-line', detail: `${decoded.left.path}: ${decoded.left.detail}`, ...(rawType === undefined ? {} : { rawType }) }
        : { kind: 'events', events: decoded.right };
    }
    const step = scanner.record(line.line, outcome);
    if (step.kind === 'reject') {
      const { problem: first, turnEndLine } = step.damage;
      throw new SessionLogRejected(
        'damaged-history',
        file,
        `${first.detail}; a turn/end follows at line ${turnEndLine}, so the damage is inside committed history and the whole file is rejected`,
        { line: first.line },
      );
    }
    if (step.kind === 'drop') continue;
    for (const event of step.events) {
      const legacy = isLegacyV0Shape(parsed.formatVersion, event.type, event.data);
      const decodedEvent = legacy ? decodeLegacyV0Shape(event.data) : decodeSessionEvent(event.type, event.data);
      if (isLeft(decodedEvent)) throw SessionLogRejected.fromDecodeError('invalid-event', file, line.line, decodedEvent.left);
      const eventClass: EventClass = legacy ? 'recognised' : classifyEventType(event.type);
      if (legacy) legacyShapes += 1;
      if (eventClass === 'unknown' && event.ignorable !== true) unknownTypes.add(event.type);
      if (event.type === 'session/end-seed' && isRecord(event.data) && event.data['inherited'] === true) inheritedCut = event.seq;
      yield { kind: 'event', line: line.line, event, eventClass };
      kept += 1;
      if (options.maxEvents !== undefined && kept >= options.maxEvents) {
        return summaryOf(head, scanner, undefined, { unknownTypes, inheritedCut, legacyShapes }, { lines: line.line, largestLineBytes: 0, peakBufferedBytes: 0 }, true);
      }
    }
  }
  const end = next.value;
  const zstd = source.zstdEnd();
  const tail =
    zstd?.incompleteFrame === true
      ? { line: end.tornTail?.line ?? end.lines + 1, reason: 'incomplete-frame' as const }
      : end.tornTail === undefined
        ? undefined
        : { line: end.tornTail.line, reason: 'torn-tail' as const };
  return summaryOf(head, scanner, tail, { unknownTypes, inheritedCut, legacyShapes }, end, false);
}

const summaryOf = (
  head: SessionLogHead,
  scanner: RecoveryScanner,
  tail: Parameters<RecoveryScanner['finish']>[0],
  seen: { readonly unknownTypes: ReadonlySet<string>; readonly inheritedCut: number | undefined; readonly legacyShapes: number },
  end: Pick<LineSplitEnd, 'lines' | 'largestLineBytes' | 'peakBufferedBytes'>,
  stoppedEarly: boolean,
): SessionLogSummary => ({
  head,
  events: scanner.expectedSeq,
  recovery: stoppedEarly ? null : scanner.finish(tail),
  inheritedCount: head.formatVersion <= 1 ? (head.header.seedLength ?? 0) : (seen.inheritedCut ?? 0),
  unknownTypes: [...seen.unknownTypes].sort(),
  legacyShapes: seen.legacyShapes,
  lines: end.lines,
  largestLineBytes: end.largestLineBytes,
  peakBufferedBytes: end.peakBufferedBytes,
  stoppedEarly,
});

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
    const stream = streamLog(file, options);
    try {
      const first = await stream.next();
      if (first.done === true || first.value.kind !== 'head') throw new NotASessionLog(file, 'no header');
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
      if (item.value.kind === 'head') continue;
      const { kind: _kind, ...event } = item.value;
      yield event;
    }
  }

  /** Read the whole file, calling `visit` for each kept event (awaited, in order). */
  async scan(visit?: (event: SessionLogEvent) => void | Promise<void>, options: ReadSessionLogOptions = {}): Promise<SessionLogSummary> {
    const events = this.events(options);
    for (let item = await events.next(); ; item = await events.next()) {
      if (item.done === true) return item.value;
      if (visit !== undefined) await visit(item.value);
    }
  }
}

export const openSessionLog = (file: string, options: ReadSessionLogOptions = {}): Promise<SessionLogReader> => SessionLogReader.open(file, options);

/** Validate a whole log without keeping its events; throws SessionLogRejected. */
export const scanSessionLog = async (file: string, options: ReadSessionLogOptions = {}): Promise<SessionLogSummary> =>
  (await openSessionLog(file, options)).scan(undefined, options);

/** Read a whole log into memory (for small logs, tests and tools; large logs: use `openSessionLog`). */
export const readSessionLog = async (
  file: string,
  options: ReadSessionLogOptions = {},
): Promise<{ readonly head: SessionLogHead; readonly events: readonly SessionLogEvent[]; readonly summary: SessionLogSummary }> => {
  const reader = await openSessionLog(file, options);
  const events: SessionLogEvent[] = [];
  const summary = await reader.scan((event) => {
    events.push(event);
  }, options);
  return { head: reader.head, events, summary };
};
