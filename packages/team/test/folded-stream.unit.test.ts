import { EventId } from '@teamlog/events';
import { InMemoryEventStore, sessionStream } from '@teamlog/store';
import { CorruptStreamEvent } from '@teamlog/team';
import { fixture, member, startedTeam } from './team-fixture';

describe('reading a damaged target stream', () => {
  it('given an acceptance with a malformed field in the stream, when the target is read, then CorruptStreamEvent names the stream, revision and field path', async () => {
    const store = new InMemoryEventStore();
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'implementer');
    const target = member(team, 'implementer').sessionId;
    const stream = sessionStream(target);
    const message = { id: 'm-1', role: 'user', content: [{ type: 'text', text: 42 }], source: { kind: 'team-relay', form: 'relay', senderSessionId: 'x', senderName: 'x' } };
    await store.appendToStream(stream, [{ id: '00000000-0000-7000-8000-0000000000ff' as EventId, type: 'teamlog/inbox/accepted', data: { teamId: team.lead.teamId, list: 'next-turn', message }, metadata: { time: 0 } }]);
    const read = teamlog.session(target);
    await expect(read).rejects.toBeInstanceOf(CorruptStreamEvent);
    await expect(read).rejects.toThrow(`stream session-${target} revision 2: data.message.content[0].text`);
    await expect(team.lead.send({ target: 'implementer', message: 'hi' })).rejects.toBeInstanceOf(CorruptStreamEvent);
    expect(await store.streamRevision(stream)).toBe(2n);
  });
});
