import { isLeft } from 'fp-ts/Either';
import {
  type EventClass,
  type EventId,
  type FormatVersion,
  classifyEventType,
  isPackedRowType,
  isTeamRecordType,
} from '@teamlog/events';
import { isBlankRange } from './blank-line';
import { checkCatalogPayload, checkLegacyV0Shape } from './event-payload-check';
import { internedType } from './interned-type';
import { isLegacyV0Shape } from './legacy-v0-shapes';
import { CompactPackedMember } from './compact-packed-member';
import { OneShotEvent, type OneShotStream } from './one-shot-event';
import { type CheckedPackedRow, checkPackedRow, packedMemberData, packedRowEvents } from './packed-row-expander';
import type { SplitLine } from './line-splitter';
import type { LogicalEvent } from './logical-event';
import { type RecordOutcome, type Recovery, RecoveryScanner } from './recovery-scanner';
import { SessionLogRejected } from './session-log-errors';
import { decodeStorageRecord, plainEventOf } from './storage-record-decoder';
import { tooDeepPath } from './json-depth';

export interface SessionLogEvent {
  /** The physical line (header = 1); the members of a packed row share their row's line. */
  readonly line: number;
  readonly event: LogicalEvent;
  readonly eventClass: EventClass;
  /** The bytes of that line (shared by a packed row's members); valid while the event is visited. */
  readonly lineBytes: Uint8Array;
  /** The length of that line in bytes (`lineBytes.length`, without making the view). */
  readonly lineLength: number;
  /**
   * True when the payload is a catalog type's and its codec accepted it: checked by this read, or
   * (a trusted read) by the strict read that validated the same lines. The importer hands this
   * verdict on (`EventToAppend.catalog`), so inline views do not check the payload again.
   */
  readonly catalogChecked?: boolean;
}

/**
 * A kept event and the line it came from. The line's bytes stay a range of the read buffer: the
 * view is made only for a reader that asks for it (a store keeping the data text, a fingerprint).
 */
class VisitedEvent implements SessionLogEvent {
  readonly line: number;

  constructor(
    private readonly source: SplitLine,
    readonly event: LogicalEvent,
    readonly eventClass: EventClass,
    readonly catalogChecked: boolean,
  ) {
    this.line = source.line;
  }

  get lineBytes(): Uint8Array {
    return this.source.bytes;
  }

  get lineLength(): number {
    return this.source.length;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const blankLine = { kind: 'problem', reason: 'unparsable-line', detail: 'the line is blank (no JSON value)' } as const;

/** Why a line has no JSON value: a class, so no parsed JSON value can be taken for one. */
class LineProblem {
  constructor(readonly outcome: RecordOutcome & { readonly kind: 'problem' }) {}
}

const blankLineProblem = new LineProblem(blankLine);

/** The first byte of a UTF-8 byte order mark, which the fatal decoder drops from the front of a line. */
const bomFirstByte = 0xef;

/**
 * A line's text, decoded straight from the buffer it was read into. A line its read chunk proved
 * ASCII is sliced byte for byte (the same text, without the UTF-8 decoder's scan); one proved
 * valid UTF-8 is decoded without a second check; any other line (or one starting with a byte
 * order mark) goes through the fatal decoder, which finds what is wrong with it.
 */
const lineText = (line: SplitLine): string | undefined => {
  const { chunk, start, end } = line;
  if (line.text === 'ascii') return chunk.toString('latin1', start, end);
  if (line.text === 'utf8' && chunk[start] !== bomFirstByte) return chunk.toString('utf8', start, end);
  try {
    return utf8.decode(chunk.subarray(start, end));
  } catch {
    return undefined;
  }
};

/** A line's JSON value (as it is: nothing wrapped around it on the happy path), or the problem that makes it unparsable. */
const parseLineValue = (line: SplitLine): unknown => {
  if (line.overlongBytes !== undefined) {
    return new LineProblem({
      kind: 'problem',
      reason: 'line-too-long',
      detail: `the line has ${line.overlongBytes} bytes, more than the reader's limit`,
    });
  }
  // Before decoding: a blank line is unparsable like any non-JSON line, but found without a throw (docs/rules.md#blank-lines).
  if (isBlankRange(line.chunk, line.start, line.end)) return blankLineProblem;
  const text = lineText(line);
  if (text === undefined)
    return new LineProblem({ kind: 'problem', reason: 'unparsable-line', detail: 'the line is not valid UTF-8' });
  try {
    return JSON.parse(text);
  } catch (error) {
    return new LineProblem({
      kind: 'problem',
      reason: 'unparsable-line',
      detail: `the line is not JSON (${error instanceof Error ? error.message : String(error)})`,
    });
  }
};

/** A line's JSON value, or the problem that makes it unparsable. */
export const parseLine = (line: SplitLine): { readonly value?: unknown; readonly problem?: RecordOutcome } => {
  const parsed = parseLineValue(line);
  return parsed instanceof LineProblem ? { problem: parsed.outcome } : { value: parsed };
};

/** What the reader accepts of one line (both are input validation, see checkLimits). */
export interface LineLimits {
  readonly maxLineBytes: number;
  readonly maxJsonDepth: number;
}

/** A Team record kept verbatim although it does not decode; the team view reports it as the failure. */
export interface InvalidTeamRecord {
  readonly line: number;
  readonly seq: number;
  readonly type: string;
  readonly message: string;
}

/** What the reader needs to know of an event type, looked up once per type. */
interface TypeFacts {
  /** The type, interned (see `internedType`): the one copy the views are handed. */
  readonly type: string;
  readonly eventClass: EventClass;
  readonly teamRecord: boolean;
}

/** Types whose facts a read keeps: a log has a few dozen; past this (crafted input), they are looked up each time. */
const maxKnownTypes = 256;

/**
 * The event lines of one log, one at a time: decode the storage record, apply the recovery rule,
 * decode catalog events strictly, and keep the tallies the summary reports. Pure apart from the
 * errors it throws (SessionLogRejected, naming file, line and field path).
 */
export class EventLineProcessor {
  private readonly scanner = new RecoveryScanner();
  private readonly unknown = new Set<string>();
  private inheritedCut: number | undefined;
  private legacy = 0;
  private readonly teamProblems: InvalidTeamRecord[] = [];
  private readonly typeFacts = new Map<string, TypeFacts>();
  /** With `compactIds`: the stream every kept event is made for, as a `OneShotEvent`. */
  private readonly oneShot: OneShotStream | undefined;

  /**
   * `payloads: 'trusted'` skips the strict decode of catalog payloads (and the tallies that come
   * with it): only for a read whose lines are proven to be ones a strict read already accepted
   * (the importer's second pass, by chunk fingerprints). Its Team records are taken as their
   * codecs accepted them only when `trustedTeamRecords` says that read kept no invalid one.
   */
  constructor(
    private readonly file: string,
    private readonly formatVersion: FormatVersion,
    private readonly normalised: boolean,
    private readonly payloads: 'strict' | 'trusted' = 'strict',
    private readonly limits: LineLimits = {
      maxLineBytes: Number.POSITIVE_INFINITY,
      maxJsonDepth: Number.POSITIVE_INFINITY,
    },
    private readonly trustedTeamRecords = false,
    /**
     * The ids of the stream a store that keeps no payload takes the events into: given, a packed
     * row's members whose type is no catalog type are made as one `CompactPackedMember` each, and
     * every other kept event as one `OneShotEvent`.
     */
    private readonly compactIds?: (seq: number) => EventId,
  ) {
    this.oneShot = compactIds === undefined ? undefined : { idOf: compactIds, normalised };
  }

  get keptEvents(): number {
    return this.scanner.expectedSeq;
  }

  get unknownTypes(): readonly string[] {
    return [...this.unknown].sort();
  }

  get legacyShapes(): number {
    return this.legacy;
  }

  get invalidTeamRecords(): readonly InvalidTeamRecord[] {
    return this.teamProblems;
  }

  /** V0/V1: the header's `seedLength`; V2+: the seq of the last `session/end-seed` with `inherited: true`. */
  inheritedCount(seedLength: number | undefined): number {
    return this.formatVersion <= 1 ? (seedLength ?? 0) : (this.inheritedCut ?? 0);
  }

  finish(tail: Parameters<RecoveryScanner['finish']>[0]): Recovery | null {
    return this.scanner.finish(tail);
  }

  /** The events this line adds to the kept log (none once the recovery rule stopped accepting). */
  process(line: SplitLine): readonly SessionLogEvent[] {
    const events: SessionLogEvent[] = [];
    this.processInto(line, events);
    return events;
  }

  /**
   * `process`, adding the line's events to `into`. An ordinary event line with the expected seq
   * (nearly every line) goes the short way: its parsed value becomes the logical event and the
   * visited event, and nothing else is made for it (no outcome, step, `Either` or array).
   */
  processInto(line: SplitLine, into: SessionLogEvent[]): void {
    if (line.blankRun !== undefined) {
      // A blank line is never a turn/end, so a run of them only stops (or goes on) dropping.
      this.scanner.recordProblemRun(line.line, line.blankRun, blankLine);
      return;
    }
    const parsed = parseLineValue(line);
    const problem = parsed instanceof LineProblem ? parsed.outcome : undefined;
    // Past a problem nothing more is kept, so a line over a limit there is dropped like any other.
    if (!this.scanner.stopped) this.checkLimits(line, problem === undefined ? parsed : undefined);
    const plain = problem === undefined ? plainEventOf(parsed, this.formatVersion, this.normalised) : undefined;
    if (plain !== undefined && this.scanner.acceptNext(plain.seq)) {
      into.push(this.visited(line, plain));
      return;
    }
    if (problem === undefined && plain === undefined && this.visitPackedRow(line, parsed, into)) return;
    const step = this.scanner.record(line.line, problem ?? this.outcomeOf(parsed));
    if (step.kind === 'reject') {
      const { problem, turnEndLine } = step.damage;
      throw new SessionLogRejected(
        'damaged-history',
        this.file,
        `${problem.detail}; a turn/end follows at line ${turnEndLine}, so the damage is inside committed history and the whole file is rejected`,
        { line: problem.line },
      );
    }
    if (step.kind === 'drop') return;
    for (const event of step.events) into.push(this.visited(line, event));
  }

  /**
   * The short way for a packed row (V0/V1) whose members all come at the expected seqs, nearly
   * every such row: its members are accepted together, and classed once when their type's class
   * is the same for every member (not a catalog type, whose payloads are checked one by one).
   * False, changing nothing, for any other line, which `outcomeOf` and the recovery rule explain.
   */
  private visitPackedRow(line: SplitLine, value: unknown, into: SessionLogEvent[]): boolean {
    if (this.formatVersion > 1 || this.normalised || !isRecord(value)) return false;
    const { type, seq0 } = value;
    if (typeof type !== 'string' || !isPackedRowType(type) || seq0 !== this.scanner.expectedSeq) return false;
    const checked = checkPackedRow(type, value);
    if (isLeft(checked) || !this.scanner.acceptRun(seq0, checked.right.members.length)) return false;
    const row = checked.right;
    const first: LogicalEvent = {
      type: 'assistant/chunk',
      seq: row.seq0,
      time: row.time0,
      data: packedMemberData(row, 0),
      packed: row.type,
    };
    const facts = this.factsOf(first.type);
    if (facts.eventClass === 'catalog') {
      for (const member of packedRowEvents(row)) into.push(this.visited(line, member));
      return true;
    }
    // Every member has the row's one type: the class, and the checks classify makes, are the first one's.
    const eventClass = this.classify(line.line, first, facts);
    if (this.compactIds !== undefined) this.pushCompact(line, row, eventClass, this.compactIds, into);
    else for (const member of packedRowEvents(row)) into.push(new VisitedEvent(line, member, eventClass, false));
    return true;
  }

  /** A checked row's members as one object each (see `compactIds`): nothing else is made per member. */
  private pushCompact(
    line: SplitLine,
    row: CheckedPackedRow,
    eventClass: EventClass,
    idOf: (seq: number) => EventId,
    into: SessionLogEvent[],
  ): void {
    const shared = { row, line, eventClass, idOf };
    const { seq0, dt } = row;
    let time = row.time0;
    into.push(new CompactPackedMember(shared, 0, seq0, time));
    for (let k = 1; k < row.members.length; k += 1) {
      time += dt[k - 1] as number;
      into.push(new CompactPackedMember(shared, k, seq0 + k, time));
    }
  }

  private visited(line: SplitLine, event: LogicalEvent): SessionLogEvent {
    const facts = this.factsOf(event.type);
    const eventClass = this.classify(line.line, event, facts);
    const catalogChecked = eventClass === 'catalog' && this.verdictOf(event, facts);
    // For a store that keeps no payload, one object is the visited event, the event to append and the recorded one.
    return this.oneShot === undefined
      ? new VisitedEvent(line, event, eventClass, catalogChecked)
      : new OneShotEvent(line, event, facts.type, eventClass, catalogChecked, this.oneShot);
  }

  /** The class of a type, and whether it is a Team record's: a lookup in the catalog's tables costs more than in this map. */
  private factsOf(type: string): TypeFacts {
    const known = this.typeFacts.get(type);
    if (known !== undefined) return known;
    const facts = { type: internedType(type), eventClass: classifyEventType(type), teamRecord: isTeamRecordType(type) };
    if (this.typeFacts.size < maxKnownTypes) this.typeFacts.set(type, facts);
    return facts;
  }

  /** Whether a catalog event's payload is known accepted by its codec (see `catalogChecked`). */
  private verdictOf(event: LogicalEvent, facts: TypeFacts): boolean {
    if (!facts.teamRecord) return true;
    if (this.payloads === 'trusted') return this.trustedTeamRecords;
    // A strict read classed it: only a Team record its codec refused is kept as `catalog` (see classify).
    const problems = this.teamProblems;
    return problems.length === 0 || problems[problems.length - 1]?.seq !== event.seq;
  }

  /** The reader's limits are input validation: the whole file is rejected, naming the line (and the field). */
  private checkLimits(line: SplitLine, value: unknown): void {
    if (line.overlongBytes !== undefined) {
      throw new SessionLogRejected(
        'over-limit',
        this.file,
        `the line has ${line.overlongBytes} bytes, more than the reader's limit of ${this.limits.maxLineBytes}; nothing was imported`,
        { line: line.line },
      );
    }
    if (line.length < 2 * this.limits.maxJsonDepth) return;
    const path = tooDeepPath(value, this.limits.maxJsonDepth);
    if (path !== undefined) {
      throw new SessionLogRejected(
        'over-limit',
        this.file,
        `nests deeper than ${this.limits.maxJsonDepth} levels, the reader's limit; nothing was imported`,
        { line: line.line, path },
      );
    }
  }

  private outcomeOf(value: unknown): RecordOutcome {
    const decoded = decodeStorageRecord(value, {
      formatVersion: this.formatVersion,
      normalised: this.normalised,
      nextSeq: this.scanner.expectedSeq,
    });
    if (!isLeft(decoded)) return { kind: 'events', events: decoded.right };
    const rawType = isRecord(value) && typeof value.type === 'string' ? value.type : undefined;
    return {
      kind: 'problem',
      reason: 'unparsable-line',
      detail: `${decoded.left.path}: ${decoded.left.detail}`,
      ...(rawType === undefined ? {} : { rawType }),
    };
  }

  /** `facts`: the type's (`factsOf`), looked up once by the caller. */
  private classify(line: number, event: LogicalEvent, facts: TypeFacts): EventClass {
    const legacy = isLegacyV0Shape(this.formatVersion, event.type, event.data);
    const eventClass: EventClass = legacy ? 'recognised' : facts.eventClass;
    if (this.payloads === 'trusted') return eventClass;
    const problem = legacy ? checkLegacyV0Shape(event.data) : checkCatalogPayload(event.type, eventClass, event.data);
    if (problem !== undefined && facts.teamRecord) {
      // A bad Team record is the team's failure and the log still opens (docs/rules.md#team-record-invalid-keeps-log).
      this.teamProblems.push({
        line,
        seq: event.seq,
        type: event.type,
        message: problem.at({ file: this.file, line }).message,
      });
      return 'catalog';
    }
    if (problem !== undefined) throw SessionLogRejected.fromDecodeError('invalid-event', this.file, line, problem);
    if (legacy) this.legacy += 1;
    if (eventClass === 'unknown' && event.ignorable !== true) this.unknown.add(event.type);
    if (event.type === 'session/end-seed' && isRecord(event.data) && event.data.inherited === true)
      this.inheritedCut = event.seq;
    return eventClass;
  }
}
