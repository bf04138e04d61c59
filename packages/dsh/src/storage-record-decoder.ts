import * as t from 'io-ts';
import { type Either, isLeft, left, right } from 'fp-ts/Either';
import {
  DecodeError,
  type FormatVersion,
  type JsonObject,
  JsonValue,
  PhysicalEnvelope,
  PhysicalSourceEventSeqs,
  SurfaceOp,
  decodeWith,
  isPackedRowType,
  openObject,
} from '@teamlog/events';
import { type LogicalEvent, envelopeKeys, isEnvelopeKey } from './logical-event';
import { expandPackedRow } from './packed-row-expander';
import { type PhysicalSeqReference, expandSeqRanges } from './seq-range-codec';

/** A line of a normalised snapshot fixture: the envelope without `seq` and `time` (docs/rules.md#snapshot-fixtures). */
export const NormalisedEnvelope = openObject(
  { type: t.string, data: JsonValue },
  { ignorable: t.literal(true), surfaceOp: SurfaceOp, sourceEventSeqs: PhysicalSourceEventSeqs },
  'NormalisedEventEnvelope',
);

export interface RecordContext {
  readonly formatVersion: FormatVersion;
  readonly normalised: boolean;
  /** The seq the next event must have (dense from 0). */
  readonly nextSeq: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Envelope keys the format does not define (docs/rules.md#envelope), kept verbatim; undefined when there are none. */
const extraKeysOf = (record: Record<string, unknown>): JsonObject | undefined => {
  const keys = Object.keys(record);
  // The usual line has only envelope keys: check before building anything.
  if (keys.every((key) => envelopeKeys.has(key))) return undefined;
  // fromEntries defines the keys, so even "__proto__" stays an ordinary key.
  return Object.fromEntries(keys.filter((key) => !envelopeKeys.has(key)).map((key) => [key, record[key] as JsonValue]));
};

const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The codec's checks, written out for the common case: a line that passes needs no io-ts
 * decode (the reader's hot path); one that fails is decoded by the codec for its field path.
 * `data` needs no JsonValue check: it comes from JSON.parse.
 */
const isWellFormedEnvelope = (record: Record<string, unknown>, normalised: boolean): boolean =>
  typeof record.type === 'string' &&
  (normalised || (isCount(record.seq) && typeof record.time === 'number' && Number.isFinite(record.time))) &&
  record.data !== undefined &&
  (record.ignorable === undefined || record.ignorable === true) &&
  (record.surfaceOp === undefined || record.surfaceOp === 'append' || SurfaceOp.is(record.surfaceOp)) &&
  (record.sourceEventSeqs === undefined || PhysicalSourceEventSeqs.is(record.sourceEventSeqs));

interface Envelope {
  readonly type: string;
  readonly data: JsonValue;
  readonly ignorable?: true;
  readonly surfaceOp?: SurfaceOp;
  readonly sourceEventSeqs?: readonly PhysicalSeqReference[];
}

const envelopeOf = (record: Record<string, unknown>, normalised: boolean): Either<DecodeError, Envelope> => {
  if (isWellFormedEnvelope(record, normalised)) return right(record as unknown as Envelope);
  const decoded = normalised ? decodeWith(NormalisedEnvelope)(record) : decodeWith(PhysicalEnvelope)(record);
  return isLeft(decoded) ? decoded : right(decoded.right as Envelope);
};

const decodeEnvelope = (record: Record<string, unknown>, context: RecordContext): Either<DecodeError, LogicalEvent> => {
  if (context.normalised) {
    const stray = ['seq', 'time'].find((key) => key in record);
    if (stray !== undefined)
      return left(new DecodeError(stray, 'no seq/time', `a normalised fixture line must not carry "${stray}"`));
  }
  const decoded = envelopeOf(record, context.normalised);
  if (isLeft(decoded)) return decoded;
  const envelope = decoded.right;
  if (envelope.type.length === 0) return left(new DecodeError('type', 'a non-empty string', 'the event type is empty'));
  const seq = context.normalised ? context.nextSeq : (record.seq as number);
  let sourceEventSeqs: readonly number[] | undefined;
  if (envelope.sourceEventSeqs !== undefined) {
    // Bounded by the expected seq too, so a damaged seq cannot make the expansion huge.
    const expanded = expandSeqRanges(envelope.sourceEventSeqs, Math.min(seq, context.nextSeq));
    if (isLeft(expanded)) return expanded;
    sourceEventSeqs = expanded.right;
  }
  // Built by assignment, in the envelope's key order (per event: no spreads).
  const event: { -readonly [K in keyof LogicalEvent]: LogicalEvent[K] } = {
    type: envelope.type,
    seq,
    time: context.normalised ? 0 : (record.time as number),
    data: envelope.data,
  };
  if (envelope.ignorable !== undefined) event.ignorable = envelope.ignorable;
  if (envelope.surfaceOp !== undefined) event.surfaceOp = envelope.surfaceOp;
  if (sourceEventSeqs !== undefined) event.sourceEventSeqs = sourceEventSeqs;
  const extra = extraKeysOf(record);
  if (extra !== undefined) event.extra = extra;
  return right(event);
};

/** Whether every key of the record is an envelope key (a for-in: no key array per line). */
const hasOnlyEnvelopeKeys = (record: Record<string, unknown>): boolean => {
  for (const key in record) if (!isEnvelopeKey(key)) return false;
  return true;
};

/**
 * `sourceEventSeqs` without ranges, strictly increasing and all before the event's own seq: what
 * `expandSeqRanges` gives for them is the list itself (so it is shared, not copied). Undefined for
 * any other list, which the full decode expands and checks.
 */
const plainSourceSeqs = (physical: unknown, seq: number): readonly number[] | undefined => {
  if (!Array.isArray(physical)) return undefined;
  let previous = -1;
  for (const entry of physical) {
    if (typeof entry !== 'number' || entry <= previous) return undefined;
    previous = entry;
  }
  return previous < seq ? (physical as number[]) : undefined;
};

/**
 * The reader's hot path: the one logical event of an ordinary event line (an event object of a
 * log that is not a normalised fixture, not a packed row, with only envelope keys, and plain
 * `sourceEventSeqs` if any): the parsed value itself; undefined for any other line,
 * which `decodeStorageRecord` then decodes (and explains). The same event `decodeStorageRecord`
 * gives for such a line at the seq it carries, without an `Either` or an array around it.
 */
export const plainEventOf = (
  value: unknown,
  formatVersion: FormatVersion,
  normalised: boolean,
): LogicalEvent | undefined => {
  if (normalised || !isRecord(value)) return undefined;
  const type = value.type;
  if (typeof type !== 'string' || type.length === 0 || (formatVersion <= 1 && isPackedRowType(type))) return undefined;
  if (!isWellFormedEnvelope(value, false) || !hasOnlyEnvelopeKeys(value)) return undefined;
  const sourceEventSeqs = value.sourceEventSeqs;
  if (sourceEventSeqs !== undefined && plainSourceSeqs(sourceEventSeqs, value.seq as number) === undefined)
    return undefined;
  // Only envelope keys, each well-formed, and a plain list expands to itself: the parsed object
  // already is the logical event: no copy per line (nothing else holds the parsed value).
  return value as unknown as LogicalEvent;
};

/**
 * One storage record (a parsed line after the header) to the logical events it holds: a packed
 * row (V0/V1 only) expands to its members; any other line is one event envelope.
 */
export const decodeStorageRecord = (
  value: unknown,
  context: RecordContext,
): Either<DecodeError, readonly LogicalEvent[]> => {
  if (!isRecord(value))
    return left(
      new DecodeError(
        '(root)',
        'an event object',
        `expected an event object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)?.slice(0, 40)}`,
      ),
    );
  const type = value.type;
  if (context.formatVersion <= 1 && !context.normalised && typeof type === 'string' && isPackedRowType(type))
    return expandPackedRow(type, value);
  const event = decodeEnvelope(value, context);
  return isLeft(event) ? event : right([event.right]);
};
