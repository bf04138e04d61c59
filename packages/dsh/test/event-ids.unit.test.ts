import { v5, validate, version } from 'uuid';
import { importNamespace, sessionEventId, sessionHeaderEventId, uuidV5 } from '../src/event-ids';

describe('deterministic event ids', () => {
  it('are the RFC 4122 uuid v5 the uuid package computes', () => {
    for (const name of ['', 'session/a/0', 'session/{{session:1}}@snapshots/x/12345', 'sessionheader/ü-ñ']) {
      expect(uuidV5(name)).toBe(v5(name, importNamespace));
    }
  });

  it('depend only on the session and seq', () => {
    expect(sessionEventId('s-1', 7)).toBe(sessionEventId('s-1', 7));
    expect(sessionEventId('s-1', 7)).not.toBe(sessionEventId('s-1', 8));
    expect(sessionEventId('s-1', 7)).not.toBe(sessionEventId('s-2', 7));
    expect(sessionHeaderEventId('s-1')).not.toBe(sessionEventId('s-1', 0));
  });
});

describe('session event ids', () => {
  it('are valid uuids (version 8) that sort in seq order within a session', () => {
    const ids = [0, 1, 2, 255, 256, 70_000].map((seq) => sessionEventId('lead-1', seq));
    expect(ids.every((id) => validate(id) && version(id) === 8)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[5]?.slice(-12)).toBe('000000011170');
  });
});
