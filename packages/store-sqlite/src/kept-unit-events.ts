import type { EventToAppend, GlobalPosition, RecordedEvent, StagedStreamResult, StreamName } from '@teamlog/store';

const toPosition = (position: bigint): GlobalPosition => ({ commit: position, prepare: position });

/**
 * A unit's kept events as the participants get them at its commit: each stream's events take the
 * revisions and positions that end at its result (a stream's rows are written together, in order),
 * all with the unit's one recording time.
 */
export const recordedFromKept = (
  kept: ReadonlyMap<StreamName, readonly EventToAppend[]>,
  results: readonly StagedStreamResult[],
  recordedAt: Date,
): RecordedEvent[] => {
  const recorded: RecordedEvent[] = [];
  for (const result of results) {
    const events = kept.get(result.streamName) ?? [];
    const first = result.position.commit - BigInt(events.length) + 1n;
    const firstRevision = result.nextExpectedRevision - BigInt(events.length) + 1n;
    events.forEach((event, index) => {
      recorded.push({
        streamName: result.streamName,
        revision: firstRevision + BigInt(index),
        position: toPosition(first + BigInt(index)),
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        recordedAt,
      });
    });
  }
  return recorded;
};
