import { isLeft, isRight } from 'fp-ts/Either';
import type { SessionId } from '@teamlog/events';
import { type SessionReport, decideSessionLoop, pendingEntries } from '@teamlog/domain';
import {
  accepted,
  afterAppend,
  closed,
  created,
  evicted,
  message,
  started,
  stepEnd,
  stepStart,
  streamOf,
  target,
  turnEnd,
  turnStart,
} from './session-stream-fixtures';

const decide = (report: SessionReport, state = streamOf(created(), started)) =>
  decideSessionLoop({ sessionId: target, report }, state);
const events = (result: ReturnType<typeof decide>) => (isRight(result) ? result.right : []);
const rejection = (result: ReturnType<typeof decide>) => (isLeft(result) ? result.left : undefined);

describe('session loop decider', () => {
  it('given a created session, when the host starts it, then started is recorded', () => {
    expect(events(decide({ type: 'start' }, streamOf(created())))).toEqual([
      { type: 'teamlog/session/started', data: {} },
    ]);
  });

  it('given messages kept while the session had not started, when its first turn begins, then they are claimed in order and enter the conversation with the same ids', () => {
    const state = streamOf(
      created(),
      accepted('next-turn', message('m-1')),
      accepted('next-turn', message('m-2')),
      started,
    );
    const decided = events(decide({ type: 'begin-turn' }, state));
    expect(decided).toEqual([
      { type: 'turn/start', data: { turn: 1 } },
      { type: 'teamlog/inbox/claimed', data: { list: 'next-turn', messageIds: ['m-1', 'm-2'], turn: 1 } },
      { type: 'user/message', data: message('m-1') },
      { type: 'user/message', data: message('m-2') },
    ]);
    const after = afterAppend(state, decided);
    expect(pendingEntries(after.inbox, 'next-turn')).toEqual([]);
    expect(after.inbox.entries.map((entry) => entry.status)).toEqual(['claimed', 'claimed']);
  });

  it('given a running turn with a steered message, when the next step begins, then the step claims it', () => {
    const state = streamOf(
      created(),
      started,
      turnStart(1),
      stepStart(1, 1),
      accepted('next-step', message('m-1')),
      stepEnd(1, 1),
    );
    expect(events(decide({ type: 'begin-step' }, state))).toEqual([
      { type: 'step/start', data: { turn: 1, step: 2 } },
      { type: 'teamlog/inbox/claimed', data: { list: 'next-step', messageIds: ['m-1'], turn: 1, step: 2 } },
      { type: 'user/message', data: message('m-1') },
    ]);
  });

  it('given a running turn with nothing pending, when a step begins, then only step/start is written', () => {
    const state = streamOf(created(), started, turnStart(1));
    expect(events(decide({ type: 'begin-step' }, state))).toEqual([{ type: 'step/start', data: { turn: 1, step: 1 } }]);
  });

  it('given a steered message not yet claimed, when the turn tries to complete, then SteerInputPending names it', () => {
    const state = streamOf(created(), started, turnStart(1), accepted('next-step', message('m-1')));
    const refused = rejection(decide({ type: 'end-turn' }, state));
    expect(refused).toMatchObject({ code: 'SteerInputPending' });
    expect(refused).toMatchObject({ messageIds: ['m-1'] });
  });

  it('given a running turn with nothing steered, when it completes, then turn/end completed is written', () => {
    const state = streamOf(created(), started, turnStart(1));
    expect(events(decide({ type: 'end-turn' }, state))).toEqual([
      { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
    ]);
  });

  it('given an open step, when the turn tries to complete, then InvalidSessionTransition', () => {
    const state = streamOf(created(), started, turnStart(1), stepStart(1, 1));
    expect(rejection(decide({ type: 'end-turn' }, state))).toMatchObject({ code: 'InvalidSessionTransition' });
  });

  it('given a steered turn, when it is aborted, then the open step and turn end and the steered message is canceled, not claimed', () => {
    const state = streamOf(created(), started, turnStart(1), stepStart(1, 1), accepted('next-step', message('m-1')));
    const decided = events(decide({ type: 'abort-turn', reason: 'parent' }, state));
    expect(decided).toEqual([
      { type: 'step/end', data: { turn: 1, step: 1 } },
      { type: 'turn/end', data: { turn: 1, reason: { kind: 'aborted', reason: { kind: 'parent' } } } },
      {
        type: 'teamlog/inbox/canceled',
        data: { list: 'next-step', messageIds: ['m-1'], reason: 'turn 1 aborted (parent)' },
      },
    ]);
    const after = afterAppend(state, decided);
    expect(after.inbox.entries[0]?.status).toBe('canceled');
    expect(after.lifecycle.status).toBe('idle');
  });

  it('given a turn cut off by a crash, when the host interrupts it, then its steered message stays pending for the next turn', () => {
    const state = streamOf(created(), started, turnStart(1), accepted('next-step', message('m-1')));
    const after = afterAppend(state, events(decide({ type: 'interrupt-turn' }, state)));
    expect(after.lifecycle.status).toBe('idle');
    expect(events(decide({ type: 'begin-turn' }, after))).toContainEqual({
      type: 'user/message',
      data: message('m-1'),
    });
  });

  it('given an idle session, when it becomes resident or is evicted, then the marker is written; an evicted one resumes cold', () => {
    const idle = streamOf(created(), started, turnStart(1), turnEnd(1));
    expect(events(decide({ type: 'become-resident' }, idle))).toEqual([{ type: 'teamlog/session/resident', data: {} }]);
    expect(events(decide({ type: 'evict' }, idle))).toEqual([{ type: 'teamlog/session/evicted', data: {} }]);
    expect(events(decide({ type: 'resume' }, streamOf(created(), started, evicted)))).toEqual([
      { type: 'teamlog/session/resumed', data: { mode: 'cold' } },
    ]);
  });

  it('given a session with pending messages, when it is killed, then the pending messages are canceled and the session closes', () => {
    const state = streamOf(created(), accepted('next-turn', message('m-1')));
    expect(events(decide({ type: 'close', reason: 'killed', detail: 'by the Lead' }, state))).toEqual([
      { type: 'teamlog/inbox/canceled', data: { list: 'next-turn', messageIds: ['m-1'], reason: 'session killed' } },
      { type: 'teamlog/session/closed', data: { reason: 'killed', detail: 'by the Lead' } },
    ]);
  });

  it.each<[string, SessionReport, ReturnType<typeof streamOf>]>([
    ['a turn before the session starts', { type: 'begin-turn' }, streamOf(created())],
    ['a step outside a turn', { type: 'begin-step' }, streamOf(created(), started)],
    [
      'a second step/start inside a step',
      { type: 'begin-step' },
      streamOf(created(), started, turnStart(1), stepStart(1, 1)),
    ],
    ['step/end outside a step', { type: 'end-step' }, streamOf(created(), started, turnStart(1))],
    ['a second start', { type: 'start' }, streamOf(created(), started)],
    ['eviction of a running session', { type: 'evict' }, streamOf(created(), started, turnStart(1))],
    ['a resume of a session that is not inactive', { type: 'resume' }, streamOf(created(), started)],
    ['a turn of a closed session', { type: 'begin-turn' }, streamOf(created(), started, closed('killed'))],
    ['a second close', { type: 'close', reason: 'lost' }, streamOf(created(), closed('killed'))],
  ])('given %s, when reported, then InvalidSessionTransition', (_case, report, state) => {
    expect(rejection(decide(report, state))).toMatchObject({ code: 'InvalidSessionTransition' });
  });

  it('given no stream, when anything is reported, then SessionNotFound', () => {
    const refused = rejection(
      decideSessionLoop({ sessionId: 'ghost' as SessionId, report: { type: 'start' } }, streamOf()),
    );
    expect(refused).toMatchObject({ code: 'SessionNotFound' });
  });
});
