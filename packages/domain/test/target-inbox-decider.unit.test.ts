import { isRight } from 'fp-ts/Either';
import type { TeamId } from '@teamlog/events';
import { decideTargetInbox, pendingEntries, targetInbox } from '@teamlog/domain';
import { deciderSpec } from './decider-spec';
import {
  accepted,
  afterAppend,
  closed,
  created,
  evicted,
  message,
  resident,
  started,
  stepStart,
  streamOf,
  target,
  team,
  turnEnd,
  turnStart,
} from './session-stream-fixtures';

const admit = (relayed = message('m-1')) => ({ type: 'admit' as const, teamId: team, target, message: relayed });

const events = (result: ReturnType<typeof decideTargetInbox>) => (isRight(result) ? result.right : []);

const inbox = deciderSpec(targetInbox, target);

describe('target inbox decider', () => {
  it('given a running target, when a message is admitted, then it is accepted on the next-step list (steer)', () => {
    inbox
      .given(created(), started, turnStart(1), stepStart(1, 1))
      .when(admit())
      .then([{ type: 'teamlog/inbox/accepted', data: { teamId: team, list: 'next-step', message: message('m-1') } }]);
  });

  it('given an idle resident target, when a message is admitted, then it is accepted on the next-turn list', () => {
    inbox
      .given(created(), started, turnStart(1), turnEnd(1), resident)
      .when(admit())
      .then([{ type: 'teamlog/inbox/accepted', data: { teamId: team, list: 'next-turn', message: message('m-1') } }]);
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

  it.each(['killed', 'cancelled', 'lost', 'failed'] as const)(
    'given a %s target, when a message is admitted, then TargetClosed and nothing is decided',
    (reason) => {
      inbox.given(created(), started, closed(reason)).when(admit()).thenRejects('TargetClosed', { reason, target });
    },
  );

  it('given no stream for the target, when a message is admitted, then UnknownTarget', () => {
    inbox.given().when(admit()).thenRejects('UnknownTarget');
  });

  it('given a target of another team, when a message is admitted, then TargetOutsideTeam', () => {
    inbox
      .given(created('other-lead' as TeamId), started)
      .when(admit())
      .thenRejects('TargetOutsideTeam');
  });

  it('given a message the inbox already accepted, when it is admitted again (re-decide), then nothing more is written', () => {
    inbox
      .given(created(), started, accepted('next-turn', message('m-1')), closed('killed'))
      .when(admit())
      .then([]);
  });

  it('given a target that became running after a first decision, when the send re-decides, then the message steers instead', () => {
    const idle = streamOf(created(), started);
    expect(events(decideTargetInbox(admit(), idle))[0]?.data).toMatchObject({ list: 'next-turn' });
    const running = afterAppend(idle, [turnStart(1)]);
    expect(events(decideTargetInbox(admit(), running))[0]?.data).toMatchObject({ list: 'next-step' });
  });
});
