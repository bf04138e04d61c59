import type { ReadStreamOptions, RecordedEvent } from './event-store';

/** The events `readStream` returns from a whole stream held in memory. */
export function* readStreamSlice(
  events: readonly RecordedEvent[],
  options: ReadStreamOptions,
): Generator<RecordedEvent> {
  const direction = options.direction ?? 'forwards';
  const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
  const from = options.from ?? (direction === 'forwards' ? 'start' : 'end');
  const lastIndex = events.length - 1;
  // Like EventStoreDB: forwards from 'end' reads nothing; backwards from a revision past the end starts at the end.
  let index =
    from === 'start' ? 0 : from === 'end' ? (direction === 'forwards' ? lastIndex + 1 : lastIndex) : Number(from);
  if (direction === 'backwards') index = Math.min(index, lastIndex);
  const step = direction === 'forwards' ? 1 : -1;
  for (let count = 0; count < maxCount && index >= 0 && index <= lastIndex; count += 1, index += step) {
    yield events[index] as RecordedEvent;
  }
}
