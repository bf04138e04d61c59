import type { EventClass, EventId, JsonObject, JsonValue } from '@teamlog/events';
import { SelfRecordedEvent } from '@teamlog/store';
import type { SessionLogEvent } from './event-line-processor';
import type { SplitLine } from './line-splitter';
import type { LogicalEvent } from './logical-event';
import { type CheckedPackedRow, packedMemberData } from './packed-row-expander';

/** What the compact members of one packed row share: made once per row. */
export interface CompactRow {
  readonly row: CheckedPackedRow;
  readonly line: SplitLine;
  readonly eventClass: EventClass;
  /** The ids of the session stream the members are stored in (`sessionEventIds`). */
  readonly idOf: (seq: number) => EventId;
}

/**
 * A packed row's member as one object for a store that keeps no payload (the heads-only store):
 * at once the visited event, its logical event, the event to append and the recorded event. Its `data`, id and
 * metadata are made when read (that store reads them of a run's ends only), the same values the
 * expander and `eventToAppendEncoder` give. Only for a row of a log that is not normalised and
 * whose members' payloads are no catalog type's (no verdict to hand on, no data text to cut).
 */
export class CompactPackedMember extends SelfRecordedEvent implements SessionLogEvent, LogicalEvent {
  readonly type = 'assistant/chunk';
  private made: JsonObject | undefined;

  constructor(
    private readonly shared: CompactRow,
    private readonly index: number,
    readonly seq: number,
    readonly time: number,
  ) {
    super();
  }

  get event(): LogicalEvent {
    return this;
  }

  get line(): number {
    return this.shared.line.line;
  }

  get eventClass(): EventClass {
    return this.shared.eventClass;
  }

  get catalogChecked(): boolean {
    return false;
  }

  get catalog(): boolean {
    return false;
  }

  get lineBytes(): Uint8Array {
    return this.shared.line.bytes;
  }

  get lineLength(): number {
    return this.shared.line.length;
  }

  get packed(): CheckedPackedRow['type'] {
    return this.shared.row.type;
  }

  /** Made once, when first read: one object for every reader of it. */
  get data(): JsonObject {
    this.made ??= packedMemberData(this.shared.row, this.index);
    return this.made;
  }

  get id(): EventId {
    return this.shared.idOf(this.seq);
  }

  /** A packed member of a log that is not normalised has no other envelope key (stored-event-codec.ts's `metadataOf`). */
  get metadata(): JsonValue {
    return { time: this.time, packed: this.shared.row.type };
  }
}
