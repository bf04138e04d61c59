import { streamEvent } from '@teamlog/events';
import { type SessionEvent, evolveSessionFacts, initialSessionFacts } from '@teamlog/projections';
import { sid } from '@teamlog/test-support/session-log-builder';

const event = (type: string, seq: number, data: unknown): SessionEvent =>
  ({ ...streamEvent(type, seq, data), sessionId: sid('s-1'), time: seq, normalised: false }) as SessionEvent;

const turn = [
  event('message', 0, {}),
  event('turn/start', 1, { turn: 1 }),
  event('step/start', 2, { turn: 1, step: 1 }),
];

describe('session facts', () => {
  it('give a kept view a new lifecycle at each boundary (the dashboard tells a change by identity)', () => {
    const facts = evolveSessionFacts(initialSessionFacts(sid('s-1')), turn[0] as SessionEvent);
    const before = facts.lifecycle;
    evolveSessionFacts(facts, turn[1] as SessionEvent);
    expect(facts.lifecycle).not.toBe(before);
    expect(facts.lifecycle).toMatchObject({ status: 'running', turn: 1 });
  });

  it('update the lifecycle of views read once in place, to the same values', () => {
    const facts = evolveSessionFacts(initialSessionFacts(sid('s-1')), turn[0] as SessionEvent, true);
    const before = facts.lifecycle;
    evolveSessionFacts(facts, turn[1] as SessionEvent, true);
    evolveSessionFacts(facts, turn[2] as SessionEvent, true);
    expect(facts.lifecycle).toBe(before);
    expect(facts.lifecycle).toEqual({ status: 'running', native: false, turn: 1, step: 1 });
  });
});
