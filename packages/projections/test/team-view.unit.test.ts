import { InMemoryEventStore } from '@teamlog/store';
import {
  appendHeader,
  appendSession,
  delivered,
  ev,
  mailboxItem,
  member,
  promptItem,
  queued,
  sid,
  splice,
  task,
  turnEnd,
  turnStart,
  userMessage,
} from '@teamlog/test-support/session-log-builder';
import { viewsOf } from './views-of';

describe('team view', () => {
  it('lists members and tasks in order of first appearance with their latest snapshot', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      member(1, 'lead-1', 'b', 'beta', 'provisioning'),
      member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
      task(1, 'lead-1', 'task-2', 1),
      task(1, 'lead-1', 'task-1', 1, { blockedBy: ['task-2'] }),
      member(1, 'lead-1', 'b', 'beta', 'failed', { error: 'no quota' }),
      task(1, 'lead-1', 'task-2', 2, { status: 'in_progress', ownerId: 'a' }),
    ]);
    const [team] = (await viewsOf(store)).teams();
    expect(team?.members.map((m) => [m.id, m.phase, m.error])).toEqual([
      ['b', 'failed', 'no quota'],
      ['a', 'provisioning', undefined],
    ]);
    expect(team?.tasks.map((t) => [t.id, t.revision, t.status, t.ownerId, t.blockedBy])).toEqual([
      ['task-2', 2, 'in_progress', 'a', []],
      ['task-1', 1, 'pending', undefined, ['task-2']],
    ]);
    expect(team?.failure).toBeNull();
  });

  it('combines an active member phase with its session lifecycle', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      member(2, 'lead-1', 'a', 'alpha', 'provisioning'),
      member(2, 'lead-1', 'a', 'alpha', 'active'),
      member(2, 'lead-1', 'b', 'beta', 'provisioning'),
      member(2, 'lead-1', 'b', 'beta', 'active'),
    ]);
    await appendSession(store, 'a', [turnStart(1)]);
    await appendSession(store, 'b', [turnStart(1), turnEnd(1)]);
    const [team] = (await viewsOf(store)).teams();
    expect(team?.members.map((m) => m.status)).toEqual(['running', 'idle']);
    expect(team?.lead.status).toBe('idle');
  });

  it('shows a team only once it has a record of its own (a forked child shows none)', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'child-1', [member(1, 'lead-1', 'x', 'xray', 'provisioning'), turnStart(1)]);
    await appendSession(store, 'plain', [turnStart(1)]);
    expect((await viewsOf(store)).teams()).toEqual([]);
  });

  it('keeps the failure and the last valid state; the log still opens', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
      member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
      task(1, 'lead-1', 'task-1', 1),
      turnEnd(1),
    ]);
    const [team] = (await viewsOf(store)).teams();
    expect(team?.failure).toEqual({
      seq: 1,
      type: 'team/member',
      reason: 'invalid provisioning -> provisioning transition for member "a"',
    });
    expect(team?.tasks).toEqual([]);
  });

  it('resolves a normalised fixture team whose header arrives after its events', async () => {
    const store = new InMemoryEventStore();
    const lead = '{{session:1}}@fx';
    await appendSession(store, lead, [member(2, '{{session:1}}', '{{session:2}}', 'reviewer', 'provisioning')], {
      normalised: true,
    });
    await appendHeader(store, lead, 4, { scope: 'fx', normalised: true });
    const [team] = (await viewsOf(store)).teams();
    expect(team?.teamId).toBe(lead);
    expect(team?.members.map((m) => m.id)).toEqual(['{{session:2}}@fx']);
  });
});

describe('legacy mailbox view', () => {
  it('lists every queued message (v1 and v2) in queued order, delivered or undelivered', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      queued(1, 'lead-1', 'm1', 'lead-1', 'lead', 'a'),
      queued(2, 'lead-1', 'm2', 'a', 'alpha', 'lead-1'),
      delivered(1, 'lead-1', 'm1', 'a'),
    ]);
    const [team] = (await viewsOf(store)).teams();
    expect(team?.legacyMessages).toEqual([
      {
        id: 'm1',
        senderId: 'lead-1',
        senderName: 'lead',
        targetId: 'a',
        delivery: 'wakeup',
        queuedSeq: 0,
        status: 'delivered',
        deliveredSeq: 2,
        recordVersion: 1,
      },
      {
        id: 'm2',
        senderId: 'a',
        senderName: 'alpha',
        targetId: 'lead-1',
        queuedSeq: 1,
        status: 'undelivered',
        targetHasMessage: false,
        recordVersion: 2,
      },
    ]);
  });

  it("writes each message's fields in one order as JSON, optional ones in place or left out (the --json document is written from it)", async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      queued(1, 'lead-1', 'm1', 'lead-1', 'lead', 'a'),
      queued(2, 'lead-1', 'm2', 'a', 'alpha', 'lead-1'),
      delivered(1, 'lead-1', 'm1', 'a'),
    ]);
    await appendSession(store, 'a', [turnStart(1)]);
    const [team] = (await viewsOf(store)).teams();
    expect(team?.legacyMessages.map((message) => Object.keys(JSON.parse(JSON.stringify(message))))).toEqual([
      [
        'id',
        'senderId',
        'senderName',
        'targetId',
        'delivery',
        'queuedSeq',
        'status',
        'deliveredSeq',
        'targetHasMessage',
        'recordVersion',
      ],
      ['id', 'senderId', 'senderName', 'targetId', 'queuedSeq', 'status', 'targetHasMessage', 'recordVersion'],
    ]);
  });

  it('says whether the target log holds the message, by item id or source messageId', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      queued(1, 'lead-1', 'm1', 'lead-1', 'lead', 'a'),
      queued(1, 'lead-1', 'm2', 'lead-1', 'lead', 'a'),
      queued(1, 'lead-1', 'm3', 'lead-1', 'lead', 'a'),
    ]);
    await appendSession(store, 'a', [
      splice('next-turn', 0, [mailboxItem('lead-1', 'm1', 'lead-1', 'lead', 'item-1')]),
      userMessage({ ...promptItem('m2') }),
    ]);
    const [team] = (await viewsOf(store)).teams();
    expect(team?.legacyMessages.map((m) => [m.id, m.targetHasMessage])).toEqual([
      ['m1', true],
      ['m2', true],
      ['m3', false],
    ]);
  });
});

describe('session facts', () => {
  it('counts events and takes the header whether it arrives before or after the events', async () => {
    const store = new InMemoryEventStore();
    await appendHeader(store, 'early', 0);
    await appendSession(store, 'early', [turnStart(1), turnEnd(1)]);
    await appendSession(store, 'late', [turnStart(1)]);
    await appendHeader(store, 'late', 4);
    const views = await viewsOf(store);
    expect([views.session(sid('early'))?.eventCount, views.session(sid('early'))?.header?.formatVersion]).toEqual([
      2, 0,
    ]);
    expect([views.session(sid('late'))?.eventCount, views.session(sid('late'))?.header?.formatVersion]).toEqual([1, 4]);
  });

  it('reports an inbox event the catalog refuses instead of folding it', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'a', [ev('agent/inbox/spliced', { target: 'next-week', start: 0, inserted: [] })]);
    const views = await viewsOf(store);
    expect(views.session(sid('a'))?.problems).toEqual([
      { seq: 0, type: 'agent/inbox/spliced', detail: expect.stringContaining('data.target') },
    ]);
    expect(views.inbox()).toEqual([]);
  });

  it('reads an early V0 user/message without id or role', async () => {
    const store = new InMemoryEventStore();
    const legacy = {
      content: [{ type: 'text', text: 'Team message m1 from lead:' }],
      source: mailboxItem('lead-1', 'm1', 'lead-1', 'lead').source,
    };
    await appendSession(store, 'a', [
      userMessage({ content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }),
      userMessage(legacy),
    ]);
    const views = await viewsOf(store);
    expect(views.session(sid('a'))?.problems).toEqual([]);
    expect(views.inbox().map((entry) => [entry.messageId, entry.sourceKind, entry.origin, entry.seq])).toEqual([
      ['m1', 'team-message', 'direct', 1],
    ]);
  });
});
