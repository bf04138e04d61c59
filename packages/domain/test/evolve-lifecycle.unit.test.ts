import { catalogEventTypes, streamEvent } from '@teamlog/events';
import {
  type SessionLifecycle,
  evolveLifecycle,
  initialSessionLifecycle,
  lifecycleEventTypes,
  lifecycleHasBegun,
} from '@teamlog/domain';

const fold = (...events: Array<[string, unknown?]>): SessionLifecycle =>
  events.reduce(
    (state, [type, data], seq) => evolveLifecycle(state, streamEvent(type, seq, data ?? {})),
    initialSessionLifecycle,
  );

const created = ['teamlog/session/created', { teamId: 'lead-1', role: 'member', name: 'researcher' }] as [
  string,
  unknown,
];

/* The target inbox and session loop deciders read these statuses; these tests pin what they rely on. */
describe('session lifecycle fold', () => {
  it('given a created session, then it is native, not started, and knows its team, role and name', () => {
    expect(fold(created)).toMatchObject({
      status: 'not-started',
      native: true,
      teamId: 'lead-1',
      role: 'member',
      name: 'researcher',
    });
  });

  it('given started, resident or resumed, then the session is idle; evicted makes it inactive', () => {
    expect(fold(created, ['teamlog/session/started']).status).toBe('idle');
    expect(fold(created, ['teamlog/session/started'], ['teamlog/session/resident']).status).toBe('idle');
    expect(fold(created, ['teamlog/session/started'], ['teamlog/session/evicted']).status).toBe('inactive');
    expect(
      fold(
        created,
        ['teamlog/session/started'],
        ['teamlog/session/evicted'],
        ['teamlog/session/resumed', { mode: 'cold' }],
      ).status,
    ).toBe('idle');
  });

  it('given turn/start then step/start, then the session runs with that turn and step; turn/end makes it idle without a step', () => {
    const running = fold(
      created,
      ['teamlog/session/started'],
      ['turn/start', { turn: 3 }],
      ['step/start', { turn: 3, step: 2 }],
    );
    expect(running).toMatchObject({ status: 'running', turn: 3, step: 2 });
    const ended = evolveLifecycle(running, streamEvent('turn/end', 9, { turn: 3, reason: { kind: 'completed' } }));
    expect(ended.status).toBe('idle');
    expect(ended).not.toHaveProperty('step');
  });

  it('given a closed session, then later events move nothing: closed is terminal with its reason', () => {
    const state = fold(
      created,
      ['teamlog/session/closed', { reason: 'killed' }],
      ['teamlog/session/started'],
      ['turn/start', { turn: 1 }],
    );
    expect(state).toMatchObject({ status: 'closed', closeReason: 'killed' });
  });

  it('given a historical session (no created event), then its first event makes it idle, not native', () => {
    expect(fold(['user/message', {}])).toMatchObject({ status: 'idle', native: false });
  });

  it('given a begun lifecycle, then an event of a type outside lifecycleEventTypes leaves it as it is', () => {
    const begun = [
      fold(created),
      fold(created, ['teamlog/session/started'], ['turn/start', { turn: 1 }], ['step/start', { step: 1 }]),
      fold(['text']),
      fold(['text'], ['teamlog/session/closed', { reason: 'killed' }]),
    ];
    const others = [...catalogEventTypes, 'not/a/catalog/type'].filter((type) => !lifecycleEventTypes.has(type));
    expect(begun.every(lifecycleHasBegun)).toBe(true);
    for (const state of begun)
      for (const type of others) expect(evolveLifecycle(state, streamEvent(type, 9, {}))).toBe(state);
  });

  it('given a historical session before its first event, then it has not begun, and any event begins it', () => {
    expect(lifecycleHasBegun(initialSessionLifecycle)).toBe(false);
    expect(lifecycleHasBegun(fold(['text']))).toBe(true);
  });
});
