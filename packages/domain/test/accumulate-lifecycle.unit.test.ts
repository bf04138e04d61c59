import fc from 'fast-check';
import { streamEvent } from '@teamlog/events';
import { type SessionLifecycle, accumulateLifecycle, evolveLifecycle, initialSessionLifecycle } from '@teamlog/domain';

type Step = readonly [string, unknown];

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.nat(9).map((turn): Step => ['turn/start', { turn }]),
  fc.nat(9).map((n): Step => ['step/start', { turn: n, step: n }]),
  fc.constant<Step>(['turn/end', { turn: 1, reason: { kind: 'completed' } }]),
  fc.constantFrom<Step>(
    ['turn/start', { refused: true }],
    ['step/start', {}],
    ['turn/end', 'refused'],
    ['teamlog/session/created', { teamId: 'lead-1', role: 'member', name: 'researcher' }],
    ['teamlog/session/started', {}],
    ['teamlog/session/resident', {}],
    ['teamlog/session/evicted', {}],
    ['teamlog/session/resumed', {}],
    ['teamlog/session/closed', { reason: 'killed' }],
    ['message', { role: 'assistant' }],
  ),
);

const foldWith = (evolve: typeof evolveLifecycle, steps: readonly Step[]): SessionLifecycle[] => {
  let state = initialSessionLifecycle;
  return steps.map(([type, data], seq) => {
    state = evolve(state, streamEvent(type, seq, data));
    return { ...state };
  });
};

describe('session lifecycle folded in place (views read once)', () => {
  it('holds after every event what the pure fold holds', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        expect(foldWith(accumulateLifecycle, steps)).toEqual(foldWith(evolveLifecycle, steps));
      }),
      { numRuns: 500, seed: 20261205 },
    );
  });

  it('updates a begun session at a turn or step boundary in place, and never the shared initial state', () => {
    const begun = accumulateLifecycle(initialSessionLifecycle, streamEvent('message', 0, {}));
    expect(initialSessionLifecycle).toEqual({ status: 'not-started', native: false, turn: 0 });
    const running = accumulateLifecycle(begun, streamEvent('turn/start', 1, { turn: 3 }));
    const stepping = accumulateLifecycle(running, streamEvent('step/start', 2, { turn: 3, step: 1 }));
    const ended = accumulateLifecycle(stepping, streamEvent('turn/end', 3, { turn: 3, reason: { kind: 'completed' } }));
    expect(running).toBe(begun);
    expect(stepping).toBe(begun);
    expect(ended).toBe(begun);
    expect(ended).toEqual({ status: 'idle', native: false, turn: 3, step: undefined });
  });
});
