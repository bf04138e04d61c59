import type { EventId, JsonValue } from '@teamlog/events';
import type { EventToAppend, RecordedEvent } from './event-store';
import type { GlobalPosition } from './global-position';
import type { StreamName } from './stream-name';

/**
 * An event as the heads-only store records it: the importer's own object with its revision and
 * commit position as numbers. A one-shot replay records every event and its views read only the
 * revision (as `revisionNumber`, no BigInt) and the positions of a batch's ends, so the BigInts,
 * the position object and the id are made only when read; nothing is copied out of the event to
 * append but what the views read of every event.
 */
export class HeadRecordedEvent implements RecordedEvent {
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: JsonValue | undefined;
  readonly catalog: boolean;

  constructor(
    readonly streamName: StreamName,
    readonly revisionNumber: number,
    private readonly commit: number,
    private readonly source: EventToAppend,
    readonly recordedAt: Date,
  ) {
    this.type = source.type;
    this.data = source.data;
    this.metadata = source.metadata;
    this.catalog = source.catalog === true;
  }

  get id(): EventId {
    return this.source.id;
  }

  get revision(): bigint {
    return BigInt(this.revisionNumber);
  }

  get position(): GlobalPosition {
    const position = BigInt(this.commit);
    return { commit: position, prepare: position };
  }
}
