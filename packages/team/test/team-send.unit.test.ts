import type { MessageId } from '@teamlog/events';
import { fixture, member, startedTeam, streamOf, typesOf } from '@teamlog/test-support/team-fixture';

describe('Team send: the target inbox accepts and send returns the MessageId', () => {
  it('given a running member, when the Lead sends, then the member stream holds the message on next-step and the id is returned', async () => {
    const { store, teamlog, notices } = fixture();
    const team = await startedTeam(teamlog, 'implementer');
    const implementer = member(team, 'implementer');
    await teamlog.runtime(implementer.sessionId).beginTurn();
    const id = await team.lead.send({ target: 'implementer', message: 'use the cache' });
    const events = await streamOf(store, implementer.sessionId);
    const last = events[events.length - 1];
    expect(last?.type).toBe('teamlog/inbox/accepted');
    expect(last?.data).toEqual({
      teamId: team.lead.teamId,
      list: 'next-step',
      message: {
        id,
        role: 'user',
        content: [
          { type: 'text', text: 'Team message from lead:' },
          { type: 'text', text: 'use the cache' },
        ],
        source: { kind: 'team-relay', form: 'relay', senderSessionId: team.lead.sessionId, senderName: 'lead' },
      },
    });
    expect(notices.at(-1)).toEqual({
      teamId: team.lead.teamId,
      target: implementer.sessionId,
      sender: team.lead.sessionId,
      messageId: id,
      delivery: 'steer',
    });
  });

  it('given an idle resident member, when the Lead sends, then it waits on next-turn and the host is told to start a turn', async () => {
    const { teamlog, notices } = fixture();
    const team = await startedTeam(teamlog, 'reviewer');
    const reviewer = member(team, 'reviewer');
    const runtime = teamlog.runtime(reviewer.sessionId);
    await runtime.beginTurn();
    await runtime.endTurn();
    await runtime.becomeResident();
    const id = await team.lead.send({ target: reviewer.sessionId, message: 'review please' });
    expect((await teamlog.session(reviewer.sessionId)).pending).toEqual({ 'next-turn': [id], 'next-step': [] });
    expect(notices.at(-1)?.delivery).toBe('start-turn');
  });

  it('given an evicted member, when a sibling sends, then a cold resume is recorded before the acceptance', async () => {
    const { store, teamlog, notices } = fixture();
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    const researcher = member(team, 'researcher');
    await teamlog.runtime(researcher.sessionId).evict();
    const id = await member(team, 'implementer').send({ target: 'researcher', message: 'one more source' });
    expect(typesOf(await streamOf(store, researcher.sessionId)).slice(-3)).toEqual([
      'teamlog/session/evicted',
      'teamlog/session/resumed',
      'teamlog/inbox/accepted',
    ]);
    expect((await teamlog.session(researcher.sessionId)).status).toBe('idle');
    expect(notices.at(-1)).toMatchObject({ messageId: id, delivery: 'cold-resume' });
  });

  it('given a member not started yet, when two messages arrive, then both wait in order and its first turn claims them in that order', async () => {
    const { store, teamlog, notices } = fixture();
    const lead = await teamlog.createTeam();
    await teamlog.runtime(lead.sessionId).start();
    const late = await lead.spawnMember({ name: 'late', description: 'starts later' });
    const first = await lead.send({ target: 'late', message: 'first' });
    const second = await lead.send({ target: 'late', message: 'second' });
    expect(notices.map((notice) => notice.delivery)).toEqual(['await-start', 'await-start']);
    const runtime = teamlog.runtime(late.sessionId);
    expect((await runtime.start()).session.pending['next-turn']).toEqual([first, second]);
    const turn = await runtime.beginTurn();
    expect(turn.claimed.map((message) => message.id)).toEqual([first, second]);
    const events = await streamOf(store, late.sessionId);
    expect(typesOf(events).slice(-4)).toEqual(['turn/start', 'teamlog/inbox/claimed', 'user/message', 'user/message']);
    expect(events.slice(-2).map((event) => (event.data as { id: MessageId }).id)).toEqual([first, second]);
  });

  it.each(['killed', 'cancelled', 'lost', 'failed'] as const)(
    'given a %s member, when the Lead sends, then TargetClosed and nothing is written',
    async (reason) => {
      const { store, teamlog } = fixture();
      const team = await startedTeam(teamlog, 'reviewer');
      const reviewer = member(team, 'reviewer');
      await teamlog.runtime(reviewer.sessionId).close(reason);
      const before = await streamOf(store, reviewer.sessionId);
      const refused = team.lead.send({ target: 'reviewer', message: 'still there?' });
      await expect(refused).rejects.toMatchObject({ code: 'TargetClosed' });
      await expect(refused).rejects.toMatchObject({ fault: { reason, target: reviewer.sessionId } });
      expect(await streamOf(store, reviewer.sessionId)).toHaveLength(before.length);
    },
  );

  it.each(['killed', 'cancelled', 'lost', 'failed'] as const)(
    'given a %s member still holding its handle, when it sends to the Lead or a sibling, then SenderClosed and nothing is written',
    async (reason) => {
      const { store, teamlog, notices } = fixture();
      const team = await startedTeam(teamlog, 'reviewer', 'writer');
      const reviewer = member(team, 'reviewer');
      const writer = member(team, 'writer');
      await teamlog.runtime(reviewer.sessionId).close(reason);
      const lengths = async () => [
        (await streamOf(store, team.lead.sessionId)).length,
        (await streamOf(store, writer.sessionId)).length,
      ];
      const before = await lengths();
      for (const target of ['lead', 'writer']) {
        const refused = reviewer.send({ target, message: 'one last thing' });
        await expect(refused).rejects.toMatchObject({ code: 'SenderClosed' });
        await expect(refused).rejects.toMatchObject({ fault: { reason, sender: reviewer.sessionId } });
      }
      expect(await lengths()).toEqual(before);
      expect(notices).toEqual([]);
    },
  );

  it('given a closed Lead, when it sends to a member, then SenderClosed and the member stream is unchanged', async () => {
    const { store, teamlog } = fixture();
    const team = await startedTeam(teamlog, 'reviewer');
    const reviewer = member(team, 'reviewer');
    await teamlog.runtime(team.lead.sessionId).close('cancelled');
    const before = await streamOf(store, reviewer.sessionId);
    await expect(team.lead.send({ target: 'reviewer', message: 'wrap up' })).rejects.toMatchObject({
      code: 'SenderClosed',
    });
    expect(await streamOf(store, reviewer.sessionId)).toHaveLength(before.length);
  });

  it('given a member, when it sends to the Lead, then the Lead stream holds the message attributed to the member by name', async () => {
    const { store, teamlog, notices } = fixture();
    const team = await startedTeam(teamlog, 'researcher');
    const researcher = member(team, 'researcher');
    const id = await researcher.send({
      target: 'lead',
      message: [
        { type: 'text', text: 'found it' },
        { type: 'reasoning', text: 'because' },
      ],
    });
    const events = await streamOf(store, team.lead.sessionId);
    expect(events.at(-1)?.data).toMatchObject({
      list: 'next-turn',
      message: {
        id,
        content: [
          { type: 'text', text: 'Team message from researcher:' },
          { type: 'text', text: 'found it' },
          { type: 'reasoning', text: 'because' },
        ],
        source: { kind: 'team-relay', form: 'relay', senderSessionId: researcher.sessionId, senderName: 'researcher' },
      },
    });
    expect(notices.at(-1)).toMatchObject({ target: team.lead.sessionId, sender: researcher.sessionId });
  });

  it('given two members, when one sends to the other, then the sibling accepts it from that member', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    const id = await member(team, 'researcher').send({ target: 'implementer', message: 'see notes' });
    const inbox = (await teamlog.session(member(team, 'implementer').sessionId)).inbox;
    expect(inbox).toEqual([
      expect.objectContaining({ id, status: 'pending', source: expect.objectContaining({ senderName: 'researcher' }) }),
    ]);
  });

  it('given a team, when a send names nobody, a session of another team, or the sender itself, then it is refused with a typed error and nothing is written', async () => {
    const { store, teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher');
    const other = await startedTeam(teamlog, 'stranger');
    const researcher = member(team, 'researcher');
    const before = await streamOf(store, member(other, 'stranger').sessionId);
    await expect(team.lead.send({ target: 'nobody', message: 'hi' })).rejects.toMatchObject({ code: 'UnknownTarget' });
    await expect(team.lead.send({ target: member(other, 'stranger').sessionId, message: 'hi' })).rejects.toMatchObject({
      code: 'TargetOutsideTeam',
    });
    await expect(team.lead.send({ target: other.lead.sessionId, message: 'hi' })).rejects.toMatchObject({
      code: 'TargetOutsideTeam',
    });
    await expect(researcher.send({ target: 'researcher', message: 'hi' })).rejects.toMatchObject({
      code: 'MessageToSelf',
    });
    await expect(team.lead.send({ target: 'lead', message: 'hi' })).rejects.toMatchObject({ code: 'MessageToSelf' });
    await expect(researcher.send({ target: 'nobody', message: 'hi' })).rejects.toMatchObject({ code: 'UnknownTarget' });
    expect(await streamOf(store, member(other, 'stranger').sessionId)).toHaveLength(before.length);
    expect((await teamlog.session(researcher.sessionId)).inbox).toEqual([]);
  });

  it('given one sender, when it sends the same text twice, then there are two ids and two acceptances (no de-duplication)', async () => {
    const { teamlog } = fixture();
    const team = await startedTeam(teamlog, 'researcher');
    const first = await team.lead.send({ target: 'researcher', message: 'ping' });
    const second = await team.lead.send({ target: 'researcher', message: 'ping' });
    expect(first).not.toBe(second);
    expect((await teamlog.session(member(team, 'researcher').sessionId)).pending['next-turn']).toEqual([first, second]);
  });
});
