import type { EventId, SessionId, WritableEvent } from '@teamlog/events';
import { InMemoryEventStore, sessionStream } from '@teamlog/store';
import { FoldedStream } from '../src/folded-stream';
import { fixture, member, startedTeam } from '@teamlog/test-support/team-fixture';

describe('reading a damaged target stream', () => {
  it('given an acceptance with a malformed field in the stream, when the target is read, then CorruptStreamEvent names the stream, revision and field path', async () => {
    const store = new InMemoryEventStore();
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'implementer');
    const target = member(team, 'implementer').sessionId;
    const stream = sessionStream(target);
    const message = {
      id: 'm-1',
      role: 'user',
      content: [{ type: 'text', text: 42 }],
      source: { kind: 'team-relay', form: 'relay', senderSessionId: 'x', senderName: 'x' },
    };
    await store.appendToStream(stream, [
      {
        id: '00000000-0000-7000-8000-0000000000ff' as EventId,
        type: 'teamlog/inbox/accepted',
        data: { teamId: team.lead.teamId, list: 'next-turn', message },
        metadata: { time: 0 },
      },
    ]);
    const read = teamlog.session(target);
    await expect(read).rejects.toMatchObject({ code: 'CorruptStreamEvent' });
    await expect(read).rejects.toThrow(`stream session-${target} revision 2: data.message.content[0].text`);
    await expect(team.lead.send({ target: 'implementer', message: 'hi' })).rejects.toMatchObject({
      code: 'CorruptStreamEvent',
    });
    expect(await store.streamRevision(stream)).toBe(2n);
  });
});

describe('folding what this process appended', () => {
  const session = 's-1' as SessionId;
  const ids = (n: number) => `00000000-0000-7000-8000-00000000000${n}` as EventId;

  it('given events appended at the folded revision, when applied, then the state equals reading them back', async () => {
    const store = new InMemoryEventStore();
    const stream = sessionStream(session);
    const local = new FoldedStream(session);
    const appended = [
      { type: 'turn/start', data: { turn: 1 } },
      { type: 'step/start', data: { turn: 1, step: 1 } },
    ] as WritableEvent[];
    const result = await store.appendToStream(
      stream,
      appended.map((event, n) => ({ type: event.type, data: { ...event.data }, id: ids(n) })),
    );
    local.applyAppended(appended, result.nextExpectedRevision);
    const reread = new FoldedStream(session);
    await reread.catchUp(store);
    expect(local.session).toEqual(reread.session);
    expect(local.session.lifecycle).toMatchObject({ status: 'running', turn: 1, step: 1 });
    expect(local.expectedRevision).toBe(1n);
  });

  it('given a revision that does not follow the folded one, when applied, then it refuses instead of folding a gap', () => {
    const local = new FoldedStream(session);
    expect(() => local.applyAppended([{ type: 'turn/start', data: { turn: 1 } }] as WritableEvent[], 4n)).toThrow(
      RangeError,
    );
    expect(local.session.revision).toBe(-1);
    expect(local.expectedRevision).toBe('no_stream');
  });
});

describe('one fold per stream', () => {
  it("given a Lead's stream, when it is caught up once, then the one fold holds both the Lead's session and the team's roster", async () => {
    const store = new InMemoryEventStore();
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher');
    const fold = new FoldedStream(team.lead.sessionId);
    await fold.catchUp(store);
    expect(fold.session.lifecycle).toMatchObject({ native: true, role: 'lead' });
    expect([...fold.team.team.members.values()].map((entry) => entry.snapshot.name)).toEqual(['researcher']);
    expect(fold.team.revision).toBe(fold.session.revision);
    // What a send routes by: the same roster, without the state object `team` makes per look.
    expect(fold.roster).toBe(fold.team.team);
    expect(fold.expectedRevision).toBe(BigInt(fold.session.revision));
  });

  it('given a fold the store knows to be current, when caught up again, then nothing is read', async () => {
    const store = new InMemoryEventStore();
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher');
    const fold = new FoldedStream(member(team, 'researcher').sessionId);
    await fold.catchUp(store);
    const reads = jest.spyOn(store, 'readStream');
    await fold.catchUp(store);
    expect(fold.isCurrent(store)).toBe(true);
    expect(reads).not.toHaveBeenCalled();
  });
});
