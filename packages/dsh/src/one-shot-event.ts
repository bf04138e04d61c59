import type { EventClass, EventId, JsonObject, JsonValue, PackedRowType, SurfaceOp } from '@teamlog/events';
import { SelfRecordedEvent } from '@teamlog/store';
import type { SessionLogEvent } from './event-line-processor';
import type { SplitLine } from './line-splitter';
import type { LogicalEvent } from './logical-event';
import { storedEventMetadataOf } from './stored-event-metadata';

/** The stream a store that keeps no payload takes a file's events into: made once per read. */
export interface OneShotStream {
  /** The ids of the session stream (`sessionEventIds`). */
  readonly idOf: (seq: number) => EventId;
  readonly normalised: boolean;
}

/** The bytes of a line an event no longer holds (it was recorded): asking for them is a bug. */
const lineLetGo = (line: number): Error =>
  new Error(`the bytes of line ${line} were let go when its event was recorded (they are valid while it is visited)`);

/**
 * An event line for a store that keeps no payload (the heads-only store), as one object: at once
 * the visited event, its logical event, the event to append and, once the store records it, the
 * recorded event the views fold. Its envelope is the parsed line's; its id and metadata are made
 * when read, the same values `eventToAppendEncoder` gives. Recorded, it lets go of its line, so a
 * stream's head kept by the store holds no read buffer.
 */
export class OneShotEvent extends SelfRecordedEvent implements SessionLogEvent, LogicalEvent {
  readonly data: JsonValue;
  readonly line: number;
  readonly lineLength: number;
  private source: SplitLine | undefined;

  constructor(
    source: SplitLine,
    private readonly parsed: LogicalEvent,
    /** `parsed.type`, interned (interned-type.ts): the copy the views' route lookups hash once. */
    readonly type: string,
    readonly eventClass: EventClass,
    readonly catalogChecked: boolean,
    private readonly stream: OneShotStream,
  ) {
    super();
    this.data = parsed.data;
    this.line = source.line;
    this.lineLength = source.length;
    this.source = source;
  }

  protected override recorded(): void {
    this.source = undefined;
  }

  get event(): LogicalEvent {
    return this;
  }

  get lineBytes(): Uint8Array {
    if (this.source === undefined) throw lineLetGo(this.line);
    return this.source.bytes;
  }

  get catalog(): boolean {
    return this.catalogChecked;
  }

  get id(): EventId {
    return this.stream.idOf(this.parsed.seq);
  }

  get metadata(): JsonValue {
    return storedEventMetadataOf(this.parsed, this.stream.normalised) as unknown as JsonValue;
  }

  /** The metadata's time, without making the metadata (the views read it of every event). */
  get metadataTime(): number {
    return this.parsed.time;
  }

  get metadataNormalised(): boolean {
    return this.stream.normalised;
  }

  get seq(): number {
    return this.parsed.seq;
  }

  get time(): number {
    return this.parsed.time;
  }

  get ignorable(): true | undefined {
    return this.parsed.ignorable;
  }

  get surfaceOp(): SurfaceOp | undefined {
    return this.parsed.surfaceOp;
  }

  get sourceEventSeqs(): readonly number[] | undefined {
    return this.parsed.sourceEventSeqs;
  }

  get extra(): JsonObject | undefined {
    return this.parsed.extra;
  }

  get packed(): PackedRowType | undefined {
    return this.parsed.packed;
  }
}
