import {
  type ByteValidator,
  JsonByteWalk,
  JsonValue,
  byteValidatorOf,
  eventCodecs,
  isCatalogEventType,
} from '@teamlog/events';
import { DatalessEvent, datalessEventTypes } from './dataless-event';
import type { SplitLine } from './line-splitter';

/** A type this scan reads: its name's bytes and the check of its data (the catalog codec's, or any JSON value). */
interface ScannedType {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly data: ByteValidator;
}

const encoder = new TextEncoder();

const scannedTypesOf = (types: readonly string[]): ScannedType[] =>
  types.flatMap((name) => {
    const data = byteValidatorOf(isCatalogEventType(name) ? eventCodecs[name] : JsonValue);
    return data === undefined ? [] : [{ name, bytes: encoder.encode(name), data }];
  });

/** The deepest nesting the walk follows: deeper lines are parsed (the walk recurses; the reader's limit is checked there). */
const maxWalkDepth = 64;

const appendBytes = encoder.encode('append');

/** One bit per envelope key seen: a repeated key (JSON.parse keeps the last) is not read here. */
enum Seen {
  Type = 1,
  Seq = 2,
  Time = 4,
  Data = 8,
  Ignorable = 16,
  SurfaceOp = 32,
  SourceEventSeqs = 64,
}

const keyBytes = (key: string): Uint8Array => encoder.encode(key);
const typeKey = keyBytes('type');
const seqKey = keyBytes('seq');
const timeKey = keyBytes('time');
const dataKey = keyBytes('data');
const ignorableKey = keyBytes('ignorable');
const surfaceOpKey = keyBytes('surfaceOp');
const sourceEventSeqsKey = keyBytes('sourceEventSeqs');

/**
 * An ordinary event line of a `datalessEventTypes` type, checked on the bytes of its read chunk
 * without parsing it: JSON well-formedness as JSON.parse has it, the envelope `plainEventOf`
 * accepts (only envelope keys, each once; a plain `sourceEventSeqs`), the reader's depth limit
 * and the catalog codec of the data. It is sound, not complete: any line it is not sure of
 * (another type, an escape in a key, a number it does not read exactly, a repeated key, a
 * `surfaceOp` other than "append", unproven text) gives undefined, and the line is parsed the
 * ordinary way, which gives every error. One scan per reader; a line allocates its event only.
 */
export class EventLineScan {
  private readonly walk = new JsonByteWalk();
  private readonly types: readonly ScannedType[];
  private readonly seqs: number[] = [];
  private type: ScannedType | undefined;
  private seq = 0;
  private time = 0;
  private seen = 0;

  constructor(
    private readonly maxJsonDepth: number,
    types: readonly string[] = datalessEventTypes,
  ) {
    this.types = scannedTypesOf(types);
  }

  /** The line's event, or undefined when the scan is not sure of it (see the class). */
  scan(line: SplitLine): DatalessEvent | undefined {
    if (line.text === 'unproven' || line.overlongBytes !== undefined || line.blankRun !== undefined) return undefined;
    const { chunk, start, end } = line;
    const walk = this.walk;
    walk.reset(chunk, end, Math.min(this.maxJsonDepth, maxWalkDepth));
    this.forget();
    let dataAt = -1;
    let dataBeforeType = false;
    let at = walk.skipSpace(start);
    if (walk.byteAt(at) !== 0x7b || walk.depthLeft <= 0) return undefined;
    walk.depthLeft -= 1;
    at = walk.skipSpace(at + 1);
    for (;;) {
      const keyAt = at;
      at = walk.skipColon(walk.skipPlainString(keyAt));
      if (at < 0) return undefined;
      if (walk.isWord(keyAt, dataKey)) {
        if (!this.see(Seen.Data)) return undefined;
        dataAt = at;
        const type = this.type;
        dataBeforeType = type === undefined;
        at = type === undefined ? walk.skipValue(at) : type.data(walk, at);
      } else at = this.envelopeValue(keyAt, at);
      if (at < 0) return undefined;
      at = walk.skipSpace(at);
      const c = walk.byteAt(at);
      if (c === 0x7d) break;
      if (c !== 0x2c) return undefined;
      at = walk.skipSpace(at + 1);
    }
    if (walk.skipSpace(at + 1) !== end) return undefined;
    return this.eventOf(dataAt, dataBeforeType);
  }

  /** Nothing of the previous line is kept. */
  private forget(): void {
    this.type = undefined;
    this.seen = 0;
    if (this.seqs.length > 0) this.seqs.length = 0;
  }

  private see(key: Seen): boolean {
    if ((this.seen & key) !== 0) return false;
    this.seen |= key;
    return true;
  }

  /** Past the value of an envelope key other than `data`, kept; -1 for a key or value this scan does not read. */
  private envelopeValue(keyAt: number, at: number): number {
    const walk = this.walk;
    // The key's first letter picks the one key it can be; its bytes then confirm it.
    switch (walk.byteAt(keyAt + 1)) {
      case 0x74:
        if (walk.isWord(keyAt, typeKey)) return this.see(Seen.Type) ? this.typeAt(at) : -1;
        if (!walk.isWord(keyAt, timeKey) || !this.see(Seen.Time)) return -1;
        at = walk.integerAt(at);
        this.time = walk.integer;
        return at;
      case 0x73:
        if (walk.isWord(keyAt, seqKey)) {
          if (!this.see(Seen.Seq)) return -1;
          at = walk.integerAt(at);
          this.seq = walk.integer;
          return at;
        }
        if (walk.isWord(keyAt, surfaceOpKey))
          return this.see(Seen.SurfaceOp) && walk.isWord(at, appendBytes) ? at + appendBytes.length + 2 : -1;
        return walk.isWord(keyAt, sourceEventSeqsKey) && this.see(Seen.SourceEventSeqs) ? this.seqsAt(at) : -1;
      case 0x69:
        return walk.isWord(keyAt, ignorableKey) && this.see(Seen.Ignorable) && walk.byteAt(at) === 0x74
          ? walk.skipValue(at)
          : -1;
      default:
        return -1;
    }
  }

  private typeAt(at: number): number {
    for (const type of this.types) {
      if (this.walk.isWord(at, type.bytes)) {
        this.type = type;
        return at + type.bytes.length + 2;
      }
    }
    return -1;
  }

  /** A plain list of seqs (no ranges), strictly increasing: what plainEventOf takes as it is. */
  private seqsAt(p: number): number {
    const walk = this.walk;
    if (walk.byteAt(p) !== 0x5b) return -1;
    let at = walk.skipSpace(p + 1);
    if (walk.byteAt(at) === 0x5d) return at + 1;
    for (;;) {
      at = walk.integerAt(at);
      if (at < 0) return -1;
      const previous = this.seqs.length === 0 ? -1 : (this.seqs[this.seqs.length - 1] as number);
      if (walk.integer <= previous) return -1;
      this.seqs.push(walk.integer);
      at = walk.skipSpace(at);
      const c = walk.byteAt(at);
      if (c === 0x5d) return at + 1;
      if (c !== 0x2c) return -1;
      at = walk.skipSpace(at + 1);
    }
  }

  /** The event of a line whose keys were all read; undefined when one the envelope needs is missing. */
  private eventOf(dataAt: number, dataBeforeType: boolean): DatalessEvent | undefined {
    const type = this.type;
    const required = Seen.Type | Seen.Seq | Seen.Time | Seen.Data;
    if (type === undefined || (this.seen & required) !== required) return undefined;
    const seqs = this.seqs;
    if (seqs.length > 0 && (seqs[seqs.length - 1] as number) >= this.seq) return undefined;
    // `data` came before `type`: walked as any value then, checked by its type's codec now.
    if (dataBeforeType && type.data(this.walk, dataAt) < 0) return undefined;
    return new DatalessEvent(
      type.name,
      this.seq,
      this.time,
      (this.seen & Seen.Ignorable) === 0 ? undefined : true,
      (this.seen & Seen.SurfaceOp) === 0 ? undefined : 'append',
      (this.seen & Seen.SourceEventSeqs) === 0 ? undefined : [...seqs],
    );
  }
}
