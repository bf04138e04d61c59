import type { EventId, SessionId, StreamEvent, WritableEvent } from '@teamlog/events';
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
  const count = {
    initialState: (): readonly string[] => [],
    evolve: (state: readonly string[], event: StreamEvent) => [...state, `${event.seq}:${event.type}`],
  };
  const session = 's-1' as SessionId;

  it('given events appended at the folded revision, when applied, then the state equals reading them back', async () => {
    const store = new InMemoryEventStore();
    const stream = sessionStream(session);
    const local = new FoldedStream(stream, session, count);
    const appended = [
      { type: 'turn/start', data: { turn: 1 } },
      { type: 'step/start', data: { turn: 1, step: 1 } },
    ] as WritableEvent[];
    const result = await store.appendToStream(
      stream,
      appended.map((event, n) => ({
        type: event.type,
        data: { ...event.data },
        id: `00000000-0000-7000-8000-00000000000${n}` as EventId,
      })),
    );
    local.applyAppended(appended, result.nextExpectedRevision);
    const reread = new FoldedStream(stream, session, count);
    await reread.catchUp(store);
    expect(local.state).toEqual(reread.state);
    expect(local.expectedRevision).toBe(1n);
  });

  it('given a revision that does not follow the folded one, when applied, then it refuses instead of folding a gap', () => {
    const local = new FoldedStream(sessionStream('s-2' as SessionId), session, count);
    expect(() => local.applyAppended([{ type: 'turn/start', data: { turn: 1 } }] as WritableEvent[], 4n)).toThrow(
      RangeError,
    );
    expect(local.state).toEqual([]);
  });
});

describe('a fold that reads some event types only', () => {
  it('given a stream with events the fold does not read, when it catches up, then it folds only the read types, passes the others undecoded and ends at the last revision', async () => {
    const store = new InMemoryEventStore();
    const session = 's-2' as SessionId;
    const stream = sessionStream(session);
    const ids = (n: number) => `00000000-0000-7000-8000-00000000010${n}` as EventId;
    await store.appendToStream(stream, [
      { id: ids(0), type: 'turn/start', data: { turn: 1 } },
      // Would not decode: a fold that read it would throw CorruptStreamEvent.
      { id: ids(1), type: 'teamlog/inbox/accepted', data: { broken: true } },
      { id: ids(2), type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
    ]);
    const seen = new FoldedStream(stream, session, {
      initialState: (): readonly string[] => [],
      evolve: (state: readonly string[], event: StreamEvent) => [...state, `${event.seq}:${event.type}`],
      reads: (type: string) => type.startsWith('turn/'),
    });
    await seen.catchUp(store);
    expect(seen.state).toEqual(['0:turn/start', '2:turn/end']);
    expect(seen.expectedRevision).toBe(2n);
  });
});
