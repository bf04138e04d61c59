import { InMemoryEventStore, type RecordedEvent } from '@teamlog/store';
import {
  type ProjectionState,
  evolveProjection,
  initialOneShotProjectionState,
  initialProjectionState,
  referenceEraRules,
  teamlogProjection,
} from '@teamlog/projections';
import { importFixtures, realFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';

/* The batch fold (runs of a stream's events folded together) against folding each event, on every fixture. */

const eventsOf = async (root: string): Promise<RecordedEvent[]> => {
  const store = new InMemoryEventStore();
  await importFixtures(store, root);
  const events: RecordedEvent[] = [];
  for await (const event of store.readAll()) events.push(event);
  return events;
};

/** A view's data as plain values: a Map as its entries, a function (a column index's per-instance reader) left out. */
const plainValue = (value: unknown): unknown => {
  if (value instanceof Map) return [...value].map(([key, entry]) => [key, plainValue(entry)]);
  if (value instanceof Set) return [...value];
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return Array.from(value as ArrayLike<unknown>, plainValue);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => typeof entry !== 'function')
      .map(([key, entry]) => [key, plainValue(entry)]),
  );
};

/** Batches of a few sizes, so runs are cut at a batch's end as a runner cuts them. */
const foldInBatches = (initial: ProjectionState, events: readonly RecordedEvent[], size: number): ProjectionState => {
  for (let from = 0; from < events.length; from += size)
    teamlogProjection.evolveBatch?.(initial, events.slice(0, from + size), from);
  return initial;
};

describe.each([
  ['synthetic', syntheticFixtures],
  ['real', realFixtures],
])('the %s fixtures folded in batches', (_, root) => {
  let events: RecordedEvent[];
  beforeAll(async () => {
    events = await eventsOf(root);
  }, 120_000);

  it.each([
    ['kept views', () => initialProjectionState()],
    ['views read once', () => initialOneShotProjectionState(referenceEraRules)],
  ] as const)('leave %s as folding each event does', (_, initial) => {
    const one = events.reduce(evolveProjection, initial());
    expect(one.sessions.size).toBeGreaterThan(0);
    for (const size of [1, 7, events.length]) {
      const batch = foldInBatches(initial(), events, size);
      expect(plainValue(batch.sessions)).toEqual(plainValue(one.sessions));
      expect(plainValue(batch.teams)).toEqual(plainValue(one.teams));
      expect(plainValue(batch.inboxes)).toEqual(plainValue(one.inboxes));
      expect([...batch.changes.sessions]).toEqual([...one.changes.sessions]);
    }
  });
});
