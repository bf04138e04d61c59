import { type SessionId, streamEvent } from '@teamlog/events';
import { InMemoryEventStore } from '@teamlog/store';
import {
  ChangeTrackingMap,
  type SessionEvent,
  TeamlogProjections,
  evolveTeamProjection,
  initialTeamProjection,
} from '@teamlog/projections';
import { appendSession, delivered, member, queued, task } from '@teamlog/test-support/session-log-builder';

const lead = 'lead-1' as SessionId;
const at = (events: ReadonlyArray<{ type: string; data: unknown }>, time = Date.UTC(2026, 6, 20)): SessionEvent[] =>
  events.map((event, seq) => ({
    ...streamEvent(event.type, seq, event.data),
    sessionId: lead,
    time: time + seq,
    normalised: false,
  }));
const fold = (events: ReadonlyArray<{ type: string; data: unknown }>, id = lead) =>
  at(events).reduce(evolveTeamProjection, initialTeamProjection(id));

describe('Team of a Lead stream', () => {
  it('given records of the Lead own team, when folded, then roster and tasks hold their latest snapshots', () => {
    const team = fold([
      member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
      member(1, 'lead-1', 'a', 'alpha', 'active'),
      task(1, 'lead-1', 'task-1', 1),
    ]);
    expect(team.state.hasRecords).toBe(true);
    expect(team.state.members.get('a' as SessionId)?.snapshot.phase).toBe('active');
    expect([...team.state.tasks.keys()]).toEqual(['task-1']);
    expect(team.records.map((record) => [record.seq, record.type, record.version])).toEqual([
      [0, 'team/member', 1],
      [1, 'team/member', 1],
      [2, 'team/task', 1],
    ]);
  });

  it('given a forked child, when it carries its ancestor team records, then they are ignored and no team appears', () => {
    const team = fold(
      [member(1, 'lead-1', 'a', 'alpha', 'provisioning'), task(2, 'lead-1', 'task-1', 1)],
      'child-1' as SessionId,
    );
    expect(team.state.hasRecords).toBe(false);
    expect(team.state.members.size).toBe(0);
    expect(team.records).toEqual([]);
  });

  it('given a rule violation, when later records follow, then the first violation is the failure and the rest are ignored', () => {
    const team = fold([
      member(2, 'lead-1', 'a', 'alpha', 'provisioning'),
      task(2, 'lead-1', 'task-1', 2),
      member(2, 'lead-1', 'b', 'beta', 'provisioning'),
    ]);
    expect(team.state.failure).toEqual({
      seq: 1,
      type: 'team/task',
      reason: 'task "task-1" revision is not contiguous (expected 1, got 2)',
    });
    expect([...team.state.members.keys()]).toEqual(['a']);
    expect(team.records.map((record) => record.seq)).toEqual([0, 1]);
  });

  it('given a queued message, when its delivery names another target, then the mismatch is kept and the team fails', () => {
    const team = fold([queued(1, 'lead-1', 'm1', 'lead-1', 'lead', 'a'), delivered(1, 'lead-1', 'm1', 'b')]);
    expect(team.mismatches).toEqual([{ messageId: 'm1', seq: 1, queuedTargetId: 'a', deliveredTargetId: 'b' }]);
    expect(team.state.failure?.reason).toMatch(/target changed/);
  });

  it('given a normalised fixture Lead, when its records use placeholders, then they resolve in the Lead scope', () => {
    const scoped = '{{session:1}}@fx' as SessionId;
    const team = fold([member(2, '{{session:1}}', '{{session:2}}', 'reviewer', 'provisioning')], scoped);
    expect(team.state.hasRecords).toBe(true);
    expect([...team.state.members.keys()]).toEqual(['{{session:2}}@fx']);
  });
});

describe('Team of a normalised fixture Lead', () => {
  it('given placeholder message ids, then queued and delivered ids resolve in the scope, as inbox ids do', () => {
    const scoped = '{{session:1}}@fx' as SessionId;
    const team = fold(
      [
        queued(2, '{{session:1}}', '{{message:3}}', '{{session:1}}', 'lead', '{{session:2}}'),
        delivered(2, '{{session:1}}', '{{message:3}}', '{{session:2}}'),
      ],
      scoped,
    );
    expect(team.state.failure).toBeUndefined();
    expect([...team.state.messages.entries()].map(([id, entry]) => [id, entry.message.id, entry.deliveredSeq])).toEqual(
      [['{{message:3}}@fx', '{{message:3}}@fx', 1]],
    );
  });
});

describe('placeholder scope of a snapshot fixture', () => {
  const record = {
    type: 'team/member',
    data: {
      version: 2,
      teamId: '{{session:1}}',
      member: {
        id: '{{session:2}}',
        name: 'reviewer',
        description: '',
        provider: 'spawn',
        context: 'fresh',
        phase: 'provisioning',
      },
    },
  };

  it('given a Lead of a scoped fixture, then the ids of its Team records resolve in that scope', () => {
    const team = fold([record], '{{session:1}}@dir-a' as SessionId);
    expect(team.scope).toBe('dir-a');
    expect([...team.state.members.keys()]).toEqual(['{{session:2}}@dir-a']);
  });

  it('given the same record read under another scope, then it names a foreign team and is passed over', () => {
    expect(fold([record], '{{session:1}}@dir-b' as SessionId).state.members.size).toBe(1);
    const foreign = fold(
      [{ ...record, data: { ...record.data, teamId: '{{session:9}}' } }],
      '{{session:1}}@dir-b' as SessionId,
    );
    expect(foreign.state.members.size).toBe(0);
    expect(foreign.state.hasRecords).toBe(false);
  });
});

describe('Team maps of views kept in memory or in a view store', () => {
  const records = [
    member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
    member(1, 'lead-1', 'a', 'alpha', 'active'),
    queued(1, 'lead-1', 'm-1', 'lead-1', 'lead', 'a'),
  ];

  it('given views a view store writes row by row, when folded, then the maps report the keys that changed', () => {
    const team = fold(records);
    expect(team.state.messages).toBeInstanceOf(ChangeTrackingMap);
    expect((team.state.messages as unknown as ChangeTrackingMap<string, unknown>).changedKeys()).toEqual(['m-1']);
  });

  it('given views kept only in memory, when folded, then the maps are plain and keep no change per key', () => {
    const team = at(records).reduce(evolveTeamProjection, initialTeamProjection(lead, { tracked: false }));
    expect(team.state.messages).not.toBeInstanceOf(ChangeTrackingMap);
    expect([...team.state.messages.keys()]).toEqual(['m-1']);
  });

  it('given in-memory teamlog projections, when an import folds a Team inline, then its maps are plain', async () => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    const detach = projections.foldInline();
    await appendSession(store, 'lead-1', [member(1, 'lead-1', 'a', 'alpha', 'provisioning')]);
    detach?.();
    const members = projections.views().state.teams.get(lead)?.state.members;
    expect(members?.size).toBe(1);
    expect(members).not.toBeInstanceOf(ChangeTrackingMap);
  });
});

describe('the views of a one-shot replay', () => {
  const lead1 = [
    member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
    member(1, 'lead-1', 'a', 'alpha', 'active'),
    queued(1, 'lead-1', 'm-1', 'lead-1', 'lead', 'a'),
    delivered(1, 'lead-1', 'm-1', 'a'),
  ];
  const folded = async (oneShot: boolean) => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store, { oneShot });
    const detach = projections.foldInline();
    await appendSession(store, 'lead-1', lead1);
    detach?.();
    return projections.views();
  };

  it('keep no legacy message content, and read the same replay view as views that keep it', async () => {
    const [once, kept] = [await folded(true), await folded(false)];
    expect(once.state.teams.get(lead)?.state.messages.get('m-1' as never)?.message.content).toEqual([]);
    expect(kept.state.teams.get(lead)?.state.messages.get('m-1' as never)?.message.content).toEqual([
      { type: 'text', text: 'hello' },
    ]);
    expect(once.replay()).toEqual(kept.replay());
    expect(once.replay().teams[0]?.legacyMessages).toHaveLength(1);
  });
});
