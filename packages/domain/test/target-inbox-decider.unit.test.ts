import { isLeft, isRight } from 'fp-ts/Either';
import { SessionId, TeamId } from '@teamlog/events';
import {
  TargetClosed, TargetOutsideTeam, UnknownTarget, decideTargetInbox, pendingEntries,
} from '@teamlog/domain';
import {
  accepted, afterAppend, closed, created, evicted, message, resident, started, stepStart, streamOf, target, team, turnEnd,
  turnStart,
} from './session-stream-fixtures';

const admit = (relayed = message('m-1')) => ({ type: 'admit' as const, teamId: team, target, message: relayed });

const rejection = (result: ReturnType<typeof decideTargetInbox>) => (isLeft(result) ? result.left : undefined);
const events = (result: ReturnType<typeof decideTargetInbox>) => (isRight(result) ? result.right : []);

describe('target inbox decider', () => {
  it('given a running target, when a message is admitted, then it is accepted on the next-step list (steer)', () => {
    const state = streamOf(created(), started, turnStart(1), stepStart(1, 1));
    expect(events(decideTargetInbox(admit(), state))).toEqual([
      { type: 'teamlog/inbox/accepted', data: { teamId: team, list: 'next-step', message: message('m-1') } },
    ]);
  });

  it('given an idle resident target, when a message is admitted, then it is accepted on the next-turn list', () => {
    const state = streamOf(created(), started, turnStart(1), turnEnd(1), resident);
    expect(events(decideTargetInbox(admit(), state))).toEqual([
      { type: 'teamlog/inbox/accepted', data: { teamId: team, list: 'next-turn', message: message('m-1') } },
    ]);
  });

  it('given an evicted target, when a message is admitted, then a cold resume is recorded before the next-turn acceptance', () => {
    const state = streamOf(created(), started, evicted);
    const decided = events(decideTargetInbox(admit(), state));
    expect(decided.map((event) => event.type)).toEqual(['teamlog/session/resumed', 'teamlog/inbox/accepted']);
    expect(decided[0]?.data).toEqual({ mode: 'cold' });
    expect(afterAppend(state, decided).lifecycle.status).toBe('idle');
  });

  it('given a target that has not started, when two messages are admitted, then both wait on next-turn in acceptance order', () => {
    const first = streamOf(created());
    const afterFirst = afterAppend(first, events(decideTargetInbox(admit(message('m-1')), first)));
    const afterSecond = afterAppend(afterFirst, events(decideTargetInbox(admit(message('m-2')), afterFirst)));
    expect(afterSecond.lifecycle.status).toBe('not-started');
    expect(pendingEntries(afterSecond.inbox, 'next-turn').map((entry) => entry.id)).toEqual(['m-1', 'm-2']);
  });

  it.each(['killed', 'cancelled', 'lost', 'failed'] as const)('given a %s target, when a message is admitted, then TargetClosed and nothing is decided', (reason) => {
    const state = streamOf(created(), started, closed(reason));
    const refused = rejection(decideTargetInbox(admit(), state));
    expect(refused).toBeInstanceOf(TargetClosed);
    expect(refused).toMatchObject({ reason, target });
  });

  it('given no stream for the target, when a message is admitted, then UnknownTarget', () => {
    expect(rejection(decideTargetInbox(admit(), streamOf()))).toBeInstanceOf(UnknownTarget);
  });

  it('given a target of another team, when a message is admitted, then TargetOutsideTeam', () => {
    const state = streamOf(created('other-lead' as TeamId), started);
    expect(rejection(decideTargetInbox(admit(), state))).toBeInstanceOf(TargetOutsideTeam);
  });

  it('given a message the inbox already accepted, when it is admitted again (re-decide), then nothing more is written', () => {
    const state = streamOf(created(), started, accepted('next-turn', message('m-1')), closed('killed'));
    expect(decideTargetInbox(admit(), state)).toEqual({ _tag: 'Right', right: [] });
  });

  it('given a target that became running after a first decision, when the send re-decides, then the message steers instead', () => {
    const idle = streamOf(created(), started);
    expect(events(decideTargetInbox(admit(), idle))[0]?.data).toMatchObject({ list: 'next-turn' });
    const running = afterAppend(idle, [turnStart(1)]);
    expect(events(decideTargetInbox(admit(), running))[0]?.data).toMatchObject({ list: 'next-step' });
  });
});
