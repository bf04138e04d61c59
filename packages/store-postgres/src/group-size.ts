/**
 * How many of the pending appends (their event counts, oldest first) one group commit takes: as
 * many as fit in `maxEvents` events, at least one, never splitting an append.
 */
export const groupSize = (eventCounts: readonly number[], maxEvents: number): number => {
  let events = 0;
  let count = 0;
  while (count < eventCounts.length) {
    const next = eventCounts[count] as number;
    if (count > 0 && events + next > maxEvents) break;
    events += next;
    count += 1;
  }
  return count;
};
