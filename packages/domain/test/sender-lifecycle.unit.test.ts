import { isLeft, isRight } from 'fp-ts/Either';
import { type SessionId, streamEvent } from '@teamlog/events';
import { type SenderClosure, describeSendRejection, senderLifecycle } from '@teamlog/domain';

const sender = 'member-1' as SessionId;
const fold = (...events: Array<{ type: string; data?: unknown }>): SenderClosure =>
  events.reduce(
    (state, event, seq) => senderLifecycle.evolve(state, streamEvent(event.type, seq, event.data ?? {})),
    senderLifecycle.initialState(sender),
  );
const mayItSend = (state: SenderClosure) => senderLifecycle.decide({ type: 'open-to-send', sessionId: sender }, state);

describe('sender lifecycle decider', () => {
  it('given a session that started, ran turns and was evicted, when it sends, then it may (and nothing is written)', () => {
    const state = fold(
      { type: 'teamlog/session/created' },
      { type: 'teamlog/session/started' },
      { type: 'turn/start', data: { turn: 1 } },
      { type: 'teamlog/session/evicted' },
    );
    expect(state).toEqual({});
    const decided = mayItSend(state);
    expect(isRight(decided) && decided.right).toEqual([]);
  });

  it('given a session closed as killed, when it sends, then SenderClosed names the session and the reason', () => {
    const refused = mayItSend(
      fold({ type: 'teamlog/session/created' }, { type: 'teamlog/session/closed', data: { reason: 'killed' } }),
    );
    expect(isLeft(refused) && refused.left).toEqual({ code: 'SenderClosed', sender, reason: 'killed' });
    expect(isLeft(refused) && describeSendRejection(refused.left)).toBe(
      'session "member-1" is closed (killed) and sends no messages',
    );
  });

  it('given a closed session, when later events arrive, then the first close reason stays', () => {
    expect(
      fold(
        { type: 'teamlog/session/closed', data: { reason: 'cancelled' } },
        { type: 'teamlog/session/closed', data: { reason: 'lost' } },
        { type: 'turn/start' },
      ),
    ).toEqual({ closed: 'cancelled' });
  });

  it('given a close whose payload its codec refuses, then the session counts as closed (lost): a send is never let through on a damaged close', () => {
    expect(fold({ type: 'teamlog/session/closed', data: { reason: 'bored' } })).toEqual({ closed: 'lost' });
  });

  it('reads only teamlog/session/closed: a long stream is passed over unread', () => {
    expect(
      ['teamlog/session/closed', 'turn/start', 'user/message'].filter((type) => senderLifecycle.reads?.(type) ?? true),
    ).toEqual(['teamlog/session/closed']);
  });
});
