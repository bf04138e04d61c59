import { isLeft, isRight } from 'fp-ts/Either';
import { SessionId } from '@teamlog/events';
import { SenderClosed, evolveSenderClosure, initialSenderClosure, openSender } from '@teamlog/domain';

const sender = 'member-1' as SessionId;
const fold = (...events: Array<{ type: string; data?: unknown }>) =>
  events.reduce((state, event, seq) => evolveSenderClosure(state, { type: event.type, seq, data: event.data ?? {} }), initialSenderClosure);

describe('sender closure and openSender', () => {
  it('given a session that started, ran turns and was evicted, when it sends, then it may', () => {
    const state = fold({ type: 'teamlog/session/created' }, { type: 'teamlog/session/started' }, { type: 'turn/start', data: { turn: 1 } }, { type: 'teamlog/session/evicted' });
    expect(state).toEqual({});
    expect(isRight(openSender(sender, state))).toBe(true);
  });

  it('given a session closed as killed, when it sends, then SenderClosed names the session and the reason', () => {
    const refused = openSender(sender, fold({ type: 'teamlog/session/created' }, { type: 'teamlog/session/closed', data: { reason: 'killed' } }));
    expect(isLeft(refused) && refused.left).toBeInstanceOf(SenderClosed);
    expect(isLeft(refused) && refused.left.message).toBe('session "member-1" is closed (killed) and sends no messages');
  });

  it('given a closed session, when later events arrive, then the first close reason stays', () => {
    expect(fold({ type: 'teamlog/session/closed', data: { reason: 'cancelled' } }, { type: 'teamlog/session/closed', data: { reason: 'lost' } }, { type: 'turn/start' })).toEqual({ closed: 'cancelled' });
  });
});
