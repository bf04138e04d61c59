import type { EventStore, EventToAppend, RecordedEvent } from './event-store';
import type { GlobalPosition } from './global-position';
import { MigrationError, migrationFailed } from './migration-errors';
import { sameEventId } from './same-event-id';
import type { StreamName } from './stream-name';
import { type SourceStreamSummary, verifyMigration } from './verify-migration';

export interface MigrationProgress {
  readonly phase: 'copying' | 'verifying' | 'done';
  /** Source events read so far. */
  readonly eventsRead: number;
  /** Events appended to the target in this run. */
  readonly eventsCopied: number;
  /** Source events the target already held (from an earlier, interrupted run). */
  readonly eventsAlreadyPresent: number;
  readonly streamsSeen: number;
  readonly appends: number;
  /** The source `$all` position reached. */
  readonly sourcePosition: GlobalPosition | undefined;
}

export interface MigrateStoreOptions {
  readonly from: EventStore;
  readonly to: EventStore;
  readonly onProgress?: (progress: MigrationProgress) => void;
  /** Stops the copy between appends; a re-run continues where it stopped. */
  readonly signal?: AbortSignal;
  /** Events per append. Default 500. */
  readonly maxBatchEvents?: number;
  /**
   * Bytes per append, counted as `appendedEventBytes` counts them. Default 512 KiB, half the
   * default limit of EventStoreDB's appends (the smallest of the stores). A single larger event is sent alone.
   */
  readonly maxBatchBytes?: number;
}

export interface MigrationReport {
  readonly streams: number;
  readonly events: number;
  readonly eventsCopied: number;
  readonly eventsAlreadyPresent: number;
  readonly appends: number;
}

interface StreamCursor {
  /** The target's last revision when the stream was first seen, or undefined if it had none. */
  readonly targetLast: bigint | undefined;
  /** The revision the next copied event of this stream must have. */
  nextRevision: bigint;
  events: number;
  last: RecordedEvent;
}

interface PendingBatch {
  readonly streamName: StreamName;
  readonly events: RecordedEvent[];
  bytes: number;
}

const jsonBytes = (value: unknown): number =>
  value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * An event's size as EventStoreDB counts it against its MaxAppendSize: the data and metadata as
 * JSON bytes, and two bytes per character of the type (its adapter adds a few bytes of metadata
 * conventions, which the budget's margin covers).
 */
export const appendedEventBytes = (event: EventToAppend): number =>
  jsonBytes(event.data) + jsonBytes(event.metadata) + event.type.length * 2;

const toAppend = (event: RecordedEvent): EventToAppend =>
  event.metadata === undefined
    ? { id: event.id, type: event.type, data: event.data }
    : { id: event.id, type: event.type, data: event.data, metadata: event.metadata };

/**
 * Copy every stream of `from` into `to`, in `$all` order, keeping event ids, types, data,
 * metadata and revisions; then verify stream count, last revisions and last event ids.
 *
 * Resumable: each append names the exact expected revision, and a stream the target already
 * holds is continued after its last revision (its boundary event checked against the source),
 * so running it again after an interruption (or after new source writes) copies only what is
 * missing. `$all` positions are not preserved: projections rebuild their checkpoints on the target.
 */
export const migrateStore = async (options: MigrateStoreOptions): Promise<MigrationReport> => {
  const { from, to, onProgress, signal } = options;
  const maxBatchEvents = options.maxBatchEvents ?? 500;
  const maxBatchBytes = options.maxBatchBytes ?? 512 * 1024;
  const cursors = new Map<StreamName, StreamCursor>();
  let pending: PendingBatch | undefined;
  let eventsRead = 0;
  let eventsCopied = 0;
  let eventsAlreadyPresent = 0;
  let appends = 0;
  let sourcePosition: GlobalPosition | undefined;
  const report = (phase: MigrationProgress['phase']) =>
    onProgress?.({
      phase,
      eventsRead,
      eventsCopied,
      eventsAlreadyPresent,
      streamsSeen: cursors.size,
      appends,
      sourcePosition,
    });

  const fitsIn = (batch: PendingBatch, stream: StreamName, bytes: number): boolean =>
    batch.streamName === stream && batch.events.length < maxBatchEvents && batch.bytes + bytes <= maxBatchBytes;

  const cursorOf = async (event: RecordedEvent): Promise<StreamCursor> => {
    const known = cursors.get(event.streamName);
    if (known !== undefined) return known;
    const targetLast = await to.streamRevision(event.streamName);
    const cursor: StreamCursor = {
      targetLast,
      nextRevision: targetLast === undefined ? 0n : targetLast + 1n,
      events: 0,
      last: event,
    };
    cursors.set(event.streamName, cursor);
    return cursor;
  };

  const checkBoundary = async (event: RecordedEvent): Promise<void> => {
    let stored: RecordedEvent | undefined;
    for await (const candidate of to.readStream(event.streamName, {
      from: event.revision,
      direction: 'backwards',
      maxCount: 1,
    }))
      stored = candidate;
    if (stored === undefined || !sameEventId(stored.id, event.id)) {
      throw migrationFailed(
        event.streamName,
        event.revision,
        `the target holds ${stored === undefined ? 'nothing' : `event ${stored.id}`} where the source has event ${event.id}: the target is not a copy of this source`,
      );
    }
  };

  const flush = async (): Promise<void> => {
    if (pending === undefined) return;
    const batch = pending;
    pending = undefined;
    const first = batch.events[0] as RecordedEvent;
    const last = batch.events[batch.events.length - 1] as RecordedEvent;
    try {
      const result = await to.appendToStream(batch.streamName, batch.events.map(toAppend), {
        expectedRevision: first.revision === 0n ? 'no_stream' : first.revision - 1n,
      });
      if (result.nextExpectedRevision !== last.revision) {
        throw new Error(
          `the target reported revision ${result.nextExpectedRevision} for the batch ending at ${last.revision}`,
        );
      }
    } catch (error) {
      throw migrationFailed(
        batch.streamName,
        first.revision,
        `appending ${batch.events.length} event(s) failed: ${(error as Error).message}`,
        { cause: error },
      );
    }
    appends += 1;
    eventsCopied += batch.events.length;
    report('copying');
  };

  for await (const event of from.readAll()) {
    // Unflushed events are simply copied again by the next run.
    if (signal?.aborted) throw new MigrationError({ code: 'MigrationInterrupted', eventsCopied });
    eventsRead += 1;
    sourcePosition = event.position;
    const cursor = await cursorOf(event);
    cursor.events += 1;
    cursor.last = event;
    if (cursor.targetLast !== undefined && event.revision <= cursor.targetLast) {
      if (event.revision === cursor.targetLast) await checkBoundary(event);
      eventsAlreadyPresent += 1;
      continue;
    }
    if (event.revision !== cursor.nextRevision) {
      throw migrationFailed(
        event.streamName,
        event.revision,
        `the source skips from revision ${cursor.nextRevision - 1n} to ${event.revision}`,
      );
    }
    cursor.nextRevision += 1n;
    const bytes = appendedEventBytes(toAppend(event));
    if (pending === undefined || !fitsIn(pending, event.streamName, bytes)) {
      await flush();
      pending = { streamName: event.streamName, events: [], bytes: 0 };
    }
    pending.events.push(event);
    pending.bytes += bytes;
  }
  await flush();

  report('verifying');
  const summaries: SourceStreamSummary[] = [];
  for (const [streamName, cursor] of cursors) {
    summaries.push({
      streamName,
      events: cursor.events,
      lastRevision: cursor.last.revision,
      lastEventId: cursor.last.id,
    });
  }
  const mismatches = await verifyMigration(to, summaries);
  if (mismatches.length > 0) throw new MigrationError({ code: 'MigrationVerificationFailed', mismatches });
  report('done');
  return { streams: cursors.size, events: eventsRead, eventsCopied, eventsAlreadyPresent, appends };
};
