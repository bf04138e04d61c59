import type { EventId, JsonValue } from '@teamlog/events';
import type { EventToAppend, RecordedEvent } from './event-store';
import type { GlobalPosition } from './global-position';
import { HeadRecordedEvent } from './head-recorded-event';
import type { StreamName } from './stream-name';

/** The `recordedAt` of an event not recorded yet: never read, one shared object. */
const notRecorded = new Date(0);

/**
 * An event to append that the heads-only store records as itself: the store writes its stream,
 * revision, commit position and time into it and hands this same object to its commit
 * participants. A one-shot replay makes one object per event (the reader's visited event, the
 * importer's event to append and the store's recorded event in one) instead of three. Its
 * revision and position are numbers; the BigInts and the position object are made only when read.
 *
 * Recorded once: asked to record it at another place, the store wraps it (`recordAt`), so an
 * object appended twice never changes what an earlier record of it says.
 */
export abstract class SelfRecordedEvent implements EventToAppend, RecordedEvent {
  abstract readonly id: EventId;
  abstract readonly type: string;
  abstract readonly data: JsonValue;
  abstract readonly metadata: JsonValue | undefined;
  abstract readonly catalog: boolean;
  streamName: StreamName = '' as StreamName;
  /** -1 until recorded. */
  revisionNumber = -1;
  private commit = 0;
  recordedAt: Date = notRecorded;

  /**
   * Record this event at a stream's revision and a commit position: itself, filled in, or (when it
   * was recorded at another place already) a new record of it there.
   */
  recordAt(stream: StreamName, revision: number, commit: number, recordedAt: Date): RecordedEvent {
    const recorded = this.revisionNumber !== -1;
    if (recorded && (this.streamName !== stream || this.revisionNumber !== revision || this.commit !== commit))
      return new HeadRecordedEvent(stream, revision, commit, this, recordedAt);
    this.streamName = stream;
    this.revisionNumber = revision;
    this.commit = commit;
    this.recordedAt = recordedAt;
    this.recorded();
    return this;
  }

  /** Called once recorded: what only the writer needed (a read buffer's bytes) can be let go. */
  protected recorded(): void {}

  get revision(): bigint {
    return BigInt(this.revisionNumber);
  }

  get position(): GlobalPosition {
    const position = BigInt(this.commit);
    return { commit: position, prepare: position };
  }
}
