import { type EventId, sequentialIds, uuidV7Ids } from '@teamlog/events';
import { InMemoryEventStore, sessionStream, wrongExpectedVersion } from '@teamlog/store';
import { HookedStore, latch } from './hooked-store';
import { fixture, member, startedTeam, streamOf, typesOf } from '@teamlog/test-support/team-fixture';

const setup = async () => {
  const store = new HookedStore(new InMemoryEventStore());
  const { teamlog, notices } = fixture(store);
  const team = await startedTeam(teamlog, 'researcher', 'implementer');
  return { store, teamlog, notices, team, target: member(team, 'implementer') };
};

describe('Team send: cancellation, disposal and concurrency', () => {
  it('given an aborted signal, when a member sends, then SendAborted and nothing is written', async () => {
    const { store, team, target, notices } = await setup();
    const before = (await streamOf(store, target.sessionId)).length;
    const controller = new AbortController();
    controller.abort();
    await expect(
      member(team, 'researcher').send({ target: 'implementer', message: 'x', signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'SendAborted' });
    expect(await streamOf(store, target.sessionId)).toHaveLength(before);
    expect(notices).toEqual([]);
  });

  it('given a send waiting behind another for the same target, when its signal fires, then it rejects with SendAborted and writes nothing', async () => {
    const { store, team, target } = await setup();
    const hold = latch();
    store.before = async () => hold.opened;
    const first = team.lead.send({ target: 'implementer', message: 'first' });
    const controller = new AbortController();
    const second = member(team, 'researcher').send({
      target: 'implementer',
      message: 'second',
      signal: controller.signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('the user pressed escape'));
    await expect(second).rejects.toMatchObject({ code: 'SendAborted' });
    hold.open();
    const firstId = await first;
    expect(
      (await streamOf(store, target.sessionId))
        .filter((event) => event.type === 'teamlog/inbox/accepted')
        .map((event) => (event.data as { message: { id: string } }).message.id),
    ).toEqual([firstId]);
  });

  it('given a send whose append is under way, when its signal fires, then the append finishes and the id is returned', async () => {
    const { store, team, target } = await setup();
    const controller = new AbortController();
    store.before = (stream) => {
      if (stream === sessionStream(target.sessionId)) controller.abort();
    };
    const id = await team.lead.send({ target: 'implementer', message: 'late abort', signal: controller.signal });
    expect((await streamOf(store, target.sessionId)).at(-1)?.data).toMatchObject({ message: { id } });
  });

  it('given a send in flight, when the TeamLog is disposed, then the send finishes with its id and later sends are refused', async () => {
    const { store, teamlog, team, target } = await setup();
    const hold = latch();
    store.before = async () => hold.opened;
    const inFlight = team.lead.send({ target: 'implementer', message: 'before dispose' });
    await new Promise((resolve) => setImmediate(resolve));
    const disposed = teamlog.dispose();
    await expect(team.lead.send({ target: 'implementer', message: 'after dispose' })).rejects.toMatchObject({
      code: 'TeamLogDisposed',
    });
    await expect(teamlog.runtime(target.sessionId).beginTurn()).rejects.toMatchObject({ code: 'TeamLogDisposed' });
    hold.open();
    const id = await inFlight;
    await disposed;
    expect((await streamOf(store, target.sessionId)).at(-1)?.data).toMatchObject({ message: { id } });
    await expect(teamlog.createTeam()).rejects.toMatchObject({ code: 'TeamLogDisposed' });
  });

  it('given two sends in flight, when the TeamLog is disposed twice, then both disposals wait until both sends settle', async () => {
    const { store, teamlog, team } = await setup();
    const hold = latch();
    store.before = async () => hold.opened;
    const settled: string[] = [];
    const first = team.lead.send({ target: 'implementer', message: 'one' }).then(() => settled.push('first'));
    const second = member(team, 'implementer')
      .send({ target: 'researcher', message: 'two' })
      .then(() => settled.push('second'));
    await new Promise((resolve) => setImmediate(resolve));
    const disposals = [teamlog.dispose(), teamlog.dispose()].map((disposal) =>
      disposal.then(() => settled.push('disposed')),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    hold.open();
    await Promise.all([first, second, ...disposals]);
    expect(settled.slice(0, 2).sort()).toEqual(['first', 'second']);
    expect(settled.slice(2)).toEqual(['disposed', 'disposed']);
  });

  it('given another writer appends to the target between read and append, when the send conflicts, then it re-reads and decides again (now a steer)', async () => {
    const { store, team, target } = await setup();
    const stream = sessionStream(target.sessionId);
    let raced = false;
    store.before = async (name) => {
      if (name !== stream || raced) return;
      raced = true;
      // Another process starts the target's turn first; our decision (next-turn, idle) is now stale.
      await store.inner.appendToStream(stream, [
        {
          id: '00000000-0000-7000-8000-00000000abcd' as EventId,
          type: 'turn/start',
          data: { turn: 1 },
          metadata: { time: 0 },
        },
      ]);
    };
    const appends: unknown[] = [];
    store.after = (name, _events, options) => {
      if (name === stream) appends.push(options.expectedRevision);
    };
    const id = await team.lead.send({ target: 'implementer', message: 'raced' });
    const events = await streamOf(store, target.sessionId);
    expect(typesOf(events).slice(-2)).toEqual(['turn/start', 'teamlog/inbox/accepted']);
    expect(events.at(-1)?.data).toMatchObject({ list: 'next-step', message: { id } });
    expect(appends).toHaveLength(1);
  });

  it('given a store that keeps conflicting, when a send exceeds the retry budget, then it fails and wrote nothing', async () => {
    const store = new HookedStore(new InMemoryEventStore());
    const { teamlog } = fixture(store, { maxConflictRetries: 3 });
    const team = await startedTeam(teamlog, 'implementer');
    const stream = sessionStream(member(team, 'implementer').sessionId);
    store.before = (name, _events, options) => {
      if (name === stream) throw wrongExpectedVersion(name, options.expectedRevision ?? 'any', 99n);
    };
    await expect(team.lead.send({ target: 'implementer', message: 'never' })).rejects.toMatchObject({
      code: 'ConcurrencyExhausted',
      fault: { attempts: 3 },
    });
    expect((await teamlog.session(member(team, 'implementer').sessionId)).inbox).toEqual([]);
  });

  it('given a send whose append failed, when the TeamLog restarts, then nothing is retried and an explicit resend gets a new id', async () => {
    const { store, team, target, teamlog } = await setup();
    store.before = (stream) => {
      if (stream === sessionStream(target.sessionId)) throw new Error('disk full');
    };
    await expect(team.lead.send({ target: 'implementer', message: 'lost' })).rejects.toThrow('disk full');
    store.before = () => undefined;
    await teamlog.dispose();
    const restarted = fixture(store.inner, {
      ids: { ...sequentialIds('restart'), eventId: uuidV7Ids.eventId },
    }).teamlog;
    const lead = await restarted.openLead(team.lead.teamId);
    await restarted.runtime(target.sessionId).beginTurn();
    expect((await restarted.session(target.sessionId)).inbox).toEqual([]);
    const resent = await lead.send({ target: 'implementer', message: 'lost' });
    expect((await restarted.session(target.sessionId)).inbox.map((entry) => entry.id)).toEqual([resent]);
  });

  it('given many sends to one target started at once, when they settle, then the target holds them in call order, each once', async () => {
    const { team, target, teamlog } = await setup();
    const researcher = member(team, 'researcher');
    const sends = Array.from({ length: 30 }, (_, n) =>
      (n % 2 === 0 ? team.lead : researcher).send({ target: 'implementer', message: `m${n}` }),
    );
    const ids = await Promise.all(sends);
    expect(new Set(ids).size).toBe(30);
    expect((await teamlog.session(target.sessionId)).pending['next-turn']).toEqual(ids);
  });
});
