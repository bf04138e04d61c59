import type { EventId, JsonValue } from '@teamlog/events';
import {
  evolveProjection,
  initialInMemoryProjectionState,
  initialOneShotProjectionState,
  initialProjectionState,
  referenceEraRules,
} from '@teamlog/projections';
import { type RecordedEvent, streamName } from '@teamlog/store';

const recorded = (revision: number, type: string, data: JsonValue): RecordedEvent => ({
  streamName: streamName('session-a'),
  revision: BigInt(revision),
  position: { commit: BigInt(revision), prepare: BigInt(revision) },
  id: `a-${revision}` as EventId,
  type,
  data,
  metadata: { time: 1000 + revision },
  recordedAt: new Date(0),
});

const conversation = (): RecordedEvent[] => [
  recorded(0, 'turn/start', { turnId: 't1' }),
  recorded(1, 'assistant/message', { text: 'hello' }),
  recorded(2, 'turn/end', { turnId: 't1' }),
];

describe('the session changes a fold of the views records', () => {
  it('given views a view store writes, then every folded event records its session, the first one included', () => {
    const state = initialProjectionState();
    const [first, ...rest] = conversation();
    evolveProjection(state, first as RecordedEvent);
    expect([...state.changes.sessions]).toEqual(['a']);
    state.changes.sessions.clear();
    for (const event of rest) evolveProjection(state, event);
    expect([...state.changes.sessions]).toEqual(['a']);
  });

  it.each([
    ['kept only in memory', initialInMemoryProjectionState],
    ['read once', () => initialOneShotProjectionState(referenceEraRules)],
  ])(
    'given views %s, then an event that leaves the facts object records no change, and the facts move',
    (_, initial) => {
      const state = initialProjectionState();
      const kept = initial();
      for (const event of conversation()) {
        evolveProjection(state, event);
        kept.changes.sessions.clear();
        evolveProjection(kept, event);
      }
      // The last event changed the stored facts in place: nothing is recorded for a store to write.
      expect([...kept.changes.sessions]).toEqual([]);
      expect(kept.sessions.get('a' as never)?.eventCount).toBe(3);
      expect(kept.sessions.get('a' as never)?.lastTime).toBe(state.sessions.get('a' as never)?.lastTime);
    },
  );
});
