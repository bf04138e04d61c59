import type { EventId, JsonValue, SessionId } from '@teamlog/events';
import { type SessionFacts, evolveProjection, initialProjectionState } from '@teamlog/projections';
import { type RecordedEvent, streamName } from '@teamlog/store';

const recorded = (revision: number, type: string, data: JsonValue): RecordedEvent => ({
  streamName: streamName('session-a'),
  revision: BigInt(revision),
  position: { commit: BigInt(revision), prepare: BigInt(revision) },
  id: `a-${revision}` as EventId,
  type,
  data,
  metadata: undefined,
  recordedAt: new Date(revision),
});

/** A sessions map that counts its writes. */
class CountingMap extends Map<SessionId, SessionFacts> {
  sets = 0;
  override set(key: SessionId, value: SessionFacts): this {
    this.sets += 1;
    return super.set(key, value);
  }
}

describe("a session's facts in the views' fold", () => {
  it('are stored once and then changed in place: later events do not set them again, and still mark the session changed for a view store', () => {
    const state = initialProjectionState();
    const sessions = new CountingMap();
    (state as { sessions: Map<SessionId, SessionFacts> }).sessions = sessions;
    evolveProjection(state, recorded(0, 'turn/start', { turn: 1 }));
    evolveProjection(state, recorded(1, 'assistant/text', { text: 'a' }));
    state.changes.sessions.clear();
    evolveProjection(state, recorded(2, 'assistant/text', { text: 'b' }));
    expect(sessions.sets).toBe(1);
    expect(sessions.get('a' as SessionId)?.eventCount).toBe(3);
    expect([...state.changes.sessions]).toEqual(['a']);
  });
});
