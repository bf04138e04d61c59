import { sequentialIds, uuidV7Ids } from '@teamlog/events';
import { InMemoryEventStore, type StreamName } from '@teamlog/store';
import { CountingStore } from './counting-store';
import { SettlingStore } from './settling-store';
import { fixture, member, startedTeam, streamOf, typesOf } from '@teamlog/test-support/team-fixture';

describe('a send as one straight pipeline', () => {
  it('given streams this process folded or appended to, when members send, then no stream is read again: one fold per stream, kept current', async () => {
    const store = new CountingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    await member(team, 'researcher').send({ target: 'implementer', message: 'first' });
    store.reads.length = 0;
    await member(team, 'researcher').send({ target: 'implementer', message: 'second' });
    await member(team, 'researcher').send({ target: 'implementer', message: 'third' });
    expect(store.reads).toEqual([]);
    // The implementer's stream was folded when it took those messages: its first send, as sender, reads nothing again.
    await member(team, 'implementer').send({ target: 'researcher', message: 'a reply' });
    await member(team, 'implementer').send({ target: 'researcher', message: 'another' });
    expect(store.reads).toEqual([]);
    // Its stream grows by what this process appends (a message to it): its one fold took that as appended, unread.
    store.reads.length = 0;
    await member(team, 'researcher').send({ target: 'implementer', message: 'more work' });
    await member(team, 'implementer').send({ target: 'researcher', message: 'on it' });
    expect(store.reads).toEqual([]);
  });

  it('given a steady team (its lock free, every fold current), when a member sends, then the acceptance reaches the store before send returns: routing waits on nothing', async () => {
    const store = new CountingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    await member(team, 'researcher').send({ target: 'implementer', message: 'first' });
    const appended: string[] = [];
    store.before = (stream) => {
      appended.push(stream);
    };
    const sent = member(team, 'researcher').send({ target: 'implementer', message: 'second' });
    expect(appended).toEqual([`session-${member(team, 'implementer').sessionId}`]);
    await sent;
  });

  it("given two sends that resolve together, when the first's sender sends at once to the other's target, then the acceptance reaches the store before send returns: that target's lock is already free", async () => {
    const store = new CountingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer', 'reviewer', 'tester');
    // Every stream folded and current, so each send below runs its routing in the caller's turn.
    await member(team, 'researcher').send({ target: 'implementer', message: 'warm' });
    await member(team, 'reviewer').send({ target: 'tester', message: 'warm' });
    const tester = `session-${member(team, 'tester').sessionId}`;
    let reachedAtOnce: boolean | undefined;
    const first = member(team, 'researcher')
      .send({ target: 'implementer', message: 'one' })
      .then(() => {
        const appended: string[] = [];
        store.before = (stream) => {
          appended.push(stream);
        };
        const again = member(team, 'researcher').send({ target: 'tester', message: 'three' });
        reachedAtOnce = appended.includes(tester);
        return again;
      });
    const second = member(team, 'reviewer').send({ target: 'tester', message: 'two' });
    await Promise.all([first, second]);
    expect(reachedAtOnce).toBe(true);
  });

  it('given a send still routing under the team lock, when another send follows, then it queues behind it and both are admitted in call order', async () => {
    const store = new CountingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    // The store cannot vouch for any fold: the first send routes under the lock, reading the streams.
    store.knowsHeads = false;
    const first = member(team, 'researcher').send({ target: 'implementer', message: 'one' });
    store.knowsHeads = true;
    const second = member(team, 'researcher').send({ target: 'implementer', message: 'two' });
    await Promise.all([first, second]);
    const texts = (await streamOf(store, member(team, 'implementer').sessionId))
      .filter((event) => event.type === 'teamlog/inbox/accepted')
      .map((event) => JSON.stringify(event.data));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('"one"');
    expect(texts[1]).toContain('"two"');
  });

  it('given a store that cannot tell what others appended (a server store), when a member sends, then the team, the sender and the target are each read once', async () => {
    const store = new CountingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    store.knowsHeads = false;
    store.reads.length = 0;
    await member(team, 'researcher').send({ target: 'implementer', message: 'hello' });
    const researcher = member(team, 'researcher').sessionId;
    const implementer = member(team, 'implementer').sessionId;
    expect([...store.reads].sort()).toEqual(
      [`session-${team.lead.sessionId}`, `session-${researcher}`, `session-${implementer}`].sort(),
    );
  });

  it('given a target that another writer closed behind the fold, when the send appends, then the stale decision loses on the revision and the send is refused', async () => {
    const store = new CountingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    await member(team, 'researcher').send({ target: 'implementer', message: 'first' });
    // Another TeamLog on the same store (another host, as far as this one can tell) kills the target.
    const other = fixture(store, { ids: { ...sequentialIds('o'), eventId: uuidV7Ids.eventId } }).teamlog;
    store.knowsHeads = false;
    await other.runtime(member(team, 'implementer').sessionId).close('killed');
    await expect(member(team, 'researcher').send({ target: 'implementer', message: 'too late' })).rejects.toMatchObject(
      { code: 'TargetClosed' },
    );
    expect(
      typesOf(await streamOf(store, member(team, 'implementer').sessionId)).filter(
        (type) => type === 'teamlog/inbox/accepted',
      ),
    ).toHaveLength(1);
  });
});

describe('a send on a store that settles its appends', () => {
  it("given a store that settles appends itself, when a member sends, then the acceptance's append is settled by the engine's continuation and the send resolves with the message id", async () => {
    const store = new SettlingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    const before = store.settledAppends;
    const id = await member(team, 'researcher').send({ target: 'implementer', message: 'first' });
    expect(store.settledAppends - before).toBe(1);
    const accepted = (await streamOf(store, member(team, 'implementer').sessionId)).filter(
      (event) => event.type === 'teamlog/inbox/accepted',
    );
    expect(accepted.map((event) => (event.data as { message: { id: string } }).message.id)).toEqual([id]);
    // The fold took the append as it was: the next send decides on it without a read.
    store.reads.length = 0;
    await member(team, 'researcher').send({ target: 'implementer', message: 'second' });
    expect(store.reads).toEqual([]);
  });

  it('given a store that settles appends itself and a target another writer closed behind the fold, when the send appends, then the continuation decides again and the send is refused', async () => {
    const store = new SettlingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'researcher', 'implementer');
    await member(team, 'researcher').send({ target: 'implementer', message: 'first' });
    const target = `session-${member(team, 'implementer').sessionId}` as StreamName;
    // This process's fold of the target goes on believing it is current after the other writer's close.
    store.stale.set(target, store.knownRevision(target));
    const other = fixture(store, { ids: { ...sequentialIds('o'), eventId: uuidV7Ids.eventId } }).teamlog;
    await other.runtime(member(team, 'implementer').sessionId).close('killed');
    const settledBefore = store.settledAppends;
    await expect(member(team, 'researcher').send({ target: 'implementer', message: 'too late' })).rejects.toMatchObject(
      { code: 'TargetClosed' },
    );
    // The stale decision went to the store, lost on the revision, and was decided again.
    expect(store.settledAppends - settledBefore).toBe(1);
    expect(store.stale.has(target)).toBe(false);
    // The lock was let go on the refusal: a later send to the same target is decided (and refused) too.
    await expect(member(team, 'researcher').send({ target: 'implementer', message: 'again' })).rejects.toMatchObject({
      code: 'TargetClosed',
    });
  });
});

describe('a sender whose own stream takes messages meanwhile', () => {
  it('given members sending to each other at once, when all settle, then every send is accepted once, in call order per target', async () => {
    const store = new CountingStore(new InMemoryEventStore());
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog, 'a', 'b', 'c');
    const sends: Array<{ to: string; sent: Promise<string> }> = [];
    for (let round = 0; round < 8; round += 1)
      for (const [from, to] of [
        ['a', 'b'],
        ['b', 'a'],
        ['c', 'a'],
        ['a', 'c'],
        ['b', 'c'],
      ] as const)
        sends.push({ to, sent: member(team, from).send({ target: to, message: `${from}->${to} #${round}` }) });
    const settled = await Promise.all(sends.map(async ({ to, sent }) => ({ to, id: await sent })));
    for (const name of ['a', 'b', 'c']) {
      const { inbox } = await teamlog.session(member(team, name).sessionId);
      const expected = settled.filter(({ to }) => to === name).map(({ id }) => id);
      expect([name, inbox.map((entry) => entry.id)]).toEqual([name, expected]);
    }
  });
});

describe('bounded fold caches', () => {
  it('given a cache of one fold, when sends go round three members, then every evicted stream is folded again and each inbox holds exactly its messages in order', async () => {
    const { teamlog } = fixture(new InMemoryEventStore(), { foldCacheSize: 1 });
    const team = await startedTeam(teamlog, 'a', 'b', 'c');
    const sent: Record<string, string[]> = { a: [], b: [], c: [] };
    for (let round = 0; round < 4; round += 1) {
      for (const [from, to] of [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['a', 'c'],
      ] as const) {
        const id = await member(team, from).send({ target: to, message: `${from}->${to} #${round}` });
        sent[to]?.push(id);
      }
    }
    for (const name of ['a', 'b', 'c']) {
      const { inbox } = await teamlog.session(member(team, name).sessionId);
      expect([name, inbox.map((entry) => entry.id)]).toEqual([name, sent[name]]);
    }
  });

  it('refuses a cache size that holds no fold', () => {
    expect(() => fixture(new InMemoryEventStore(), { foldCacheSize: 0 })).toThrow(RangeError);
  });
});
