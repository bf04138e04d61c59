import type { SessionId } from '@teamlog/events';
import { fixture, member, startedTeam, streamOf, typesOf } from '@teamlog/test-support/team-fixture';

describe('claims at turn start and step boundaries', () => {
  it('given a steered message, when the next step begins, then the claim is recorded and the same id enters the conversation with the team-relay source', async () => {
    const { store, teamlog } = fixture();
    const team = await startedTeam(teamlog, 'implementer');
    const implementer = member(team, 'implementer');
    const runtime = teamlog.runtime(implementer.sessionId);
    await runtime.beginTurn();
    await runtime.beginStep();
    const id = await team.lead.send({ target: 'implementer', message: 'switch to plan B' });
    await runtime.endStep();
    const step = await runtime.beginStep();
    expect(step.claimed.map((message) => message.id)).toEqual([id]);
    expect(step.session).toMatchObject({ step: 2, pending: { 'next-step': [], 'next-turn': [] } });
    const events = await streamOf(store, implementer.sessionId);
    expect(typesOf(events).slice(-4)).toEqual(['step/end', 'step/start', 'teamlog/inbox/claimed', 'user/message']);
    expect(events.at(-2)?.data).toEqual({ list: 'next-step', messageIds: [id], turn: 1, step: 2 });
    expect(events.at(-1)?.data).toMatchObject({ id, source: { kind: 'team-relay', senderName: 'lead' } });
    expect(events.at(-1)?.metadata).toMatchObject({ surfaceOp: 'append', writerSessionId: implementer.sessionId });
  });

  it('given a message steered after the last step, when the turn ends, then SteerInputPending; one more step claims it and the turn completes', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'implementer');
    const runtime = teamlog.runtime(member(team, 'implementer').sessionId);
    await runtime.beginTurn();
    await runtime.beginStep();
    await runtime.endStep();
    const id = await team.lead.send({ target: 'implementer', message: 'one more thing' });
    await expect(runtime.endTurn()).rejects.toMatchObject({ code: 'SteerInputPending' });
    expect((await runtime.beginStep()).claimed.map((message) => message.id)).toEqual([id]);
    await runtime.endStep();
    expect((await runtime.endTurn()).session.status).toBe('idle');
  });

  it('given a steered message, when the turn is aborted, then the message is canceled (recorded), not claimed, and never redelivered', async () => {
    const { store, teamlog } = fixture();
    const team = await startedTeam(teamlog, 'implementer');
    const implementer = member(team, 'implementer');
    const runtime = teamlog.runtime(implementer.sessionId);
    await runtime.beginTurn();
    await runtime.beginStep();
    const id = await team.lead.send({ target: 'implementer', message: 'too late' });
    const aborted = await runtime.abortTurn('parent');
    expect(aborted.canceled).toEqual([id]);
    expect(typesOf(await streamOf(store, implementer.sessionId)).slice(-3)).toEqual([
      'step/end',
      'turn/end',
      'teamlog/inbox/canceled',
    ]);
    expect((await runtime.beginTurn()).claimed).toEqual([]);
    expect((await teamlog.session(implementer.sessionId)).inbox).toEqual([
      expect.objectContaining({ id, status: 'canceled' }),
    ]);
  });

  it('given pending messages, when the member is killed, then they are canceled and the session is closed', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'implementer');
    const implementer = member(team, 'implementer');
    const id = await team.lead.send({ target: 'implementer', message: 'queued' });
    const closed = await teamlog.runtime(implementer.sessionId).close('killed', 'the Lead stopped it');
    expect(closed.canceled).toEqual([id]);
    expect(closed.session).toMatchObject({ status: 'closed', closeReason: 'killed' });
  });

  it('given an evicted member, when the host resumes it itself, then it is idle again; a turn from idle claims next-turn input', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher');
    const runtime = teamlog.runtime(member(team, 'researcher').sessionId);
    await runtime.evict();
    expect((await runtime.resume()).session.status).toBe('idle');
    const id = await team.lead.send({ target: 'researcher', message: 'go' });
    expect((await runtime.beginTurn()).claimed.map((message) => message.id)).toEqual([id]);
  });

  it('given reports that do not fit the session, then they are refused with typed errors', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher');
    const runtime = teamlog.runtime(member(team, 'researcher').sessionId);
    await expect(runtime.beginStep()).rejects.toMatchObject({ code: 'InvalidSessionTransition' });
    await expect(runtime.start()).rejects.toMatchObject({ code: 'InvalidSessionTransition' });
    await expect(teamlog.runtime('ghost' as SessionId).start()).rejects.toMatchObject({ code: 'SessionNotFound' });
  });
});
