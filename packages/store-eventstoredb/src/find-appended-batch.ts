import {
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type RecordedEvent,
  type StreamName,
  isStoreError,
} from '@teamlog/store';
import { type BatchLookup, lookupBatch } from './batch-lookup';
import { batchSearchRange } from './batch-search-range';

/**
 * For the engine, on any store: after an append ended with an unknown outcome (for example
 * AppendOutcomeUnknown), read the stream back and say whether the batch is there before deciding
 * to append it again. 'stored' carries the original result; 'absent' means appending again with
 * the same ids and the same expected revision is the right next step.
 */
export const findAppendedBatch = async (
  store: EventStore,
  stream: StreamName,
  events: readonly EventToAppend[],
  expected: ExpectedRevision,
  window = 256,
): Promise<BatchLookup> => {
  const range = batchSearchRange(expected, events.length, window);
  const slice: RecordedEvent[] = [];
  try {
    for await (const event of store.readStream(stream, range)) slice.push(event);
  } catch (error) {
    if (!isStoreError(error, 'StreamNotFound')) throw error;
  }
  if (range.direction === 'backwards') slice.reverse();
  return lookupBatch(
    slice,
    events.map((event) => event.id),
  );
};
