import { type SessionId, type TeamId, normaliseTeamRecord, streamEvent } from '@teamlog/events';
import {
  type TeamAccumulator,
  type TeamState,
  accumulateTeam,
  applyTeamRecord,
  evolveTeam,
  initialTeamAccumulator,
  initialTeamState,
} from '@teamlog/domain';
import { isRight, left } from 'fp-ts/Either';

const team = 'lead-1' as TeamId;
let seq = 0;
const at = () => (seq += 1);

const member = (id: string, phase: string, extra: Record<string, unknown> = {}, version = 2) => ({
  type: 'team/member',
  seq: at(),
  data: {
    version,
    teamId: team,
    member: { id, name: `name-${id}`, description: 'd', provider: 'spawn', context: 'fresh', phase, ...extra },
  },
});
const task = (id: string, revision: number, extra: Record<string, unknown> = {}) => ({
  type: 'team/task',
  seq: at(),
  data: {
    version: 2,
    teamId: team,
    task: { id, revision, subject: 's', description: 'd', status: 'pending', blockedBy: [], writeScopes: [], ...extra },
  },
});
const queued = (id: string, targetId = 'child-a', version = 2) => ({
  type: 'team/message/queued',
  seq: at(),
  data: {
    version,
    teamId: team,
    message: {
      id,
      senderId: 'lead-1',
      senderName: 'lead',
      targetId,
      content: [{ type: 'text', text: 'hi' }],
      ...(version === 1 ? { delivery: 'wakeup' } : {}),
    },
  },
});
const delivered = (messageId: string, targetId = 'child-a') => ({
  type: 'team/message/delivered',
  seq: at(),
  data: { version: 2, teamId: team, messageId, targetId },
});

const fold = (...events: Array<{ type: string; seq: number; data: unknown }>): TeamState =>
  events.reduce(
    (state, event) => evolveTeam(state, streamEvent(event.type, event.seq, event.data)),
    initialTeamState(team),
  );

describe('team roster fold', () => {
  it('given a provisioning member, when it becomes active, then the roster holds the latest snapshot', () => {
    const state = fold(member('a', 'provisioning'), member('a', 'active', { description: 'now active' }));
    expect(state.failure).toBeUndefined();
    expect(state.members.get('a' as SessionId)?.snapshot).toMatchObject({ phase: 'active', description: 'now active' });
  });

  it('given no record for a member, when its first record is active, then the team fails: must begin provisioning', () => {
    const first = member('a', 'active');
    const state = fold(first);
    expect(state.failure).toEqual({
      seq: first.seq,
      type: 'team/member',
      reason: 'member "a" must begin provisioning',
    });
  });

  it('given a member, when another id takes its name, then the team fails: name reused', () => {
    const state = fold(member('a', 'provisioning'), member('b', 'provisioning', { name: 'name-a' }));
    expect(state.failure?.reason).toBe('member name "name-a" is reused by another member');
  });

  it.each([
    ['name', { name: 'other' }],
    ['provider', { provider: 'other' }],
    ['context', { context: 'fork' }],
  ])(
    'given a member, when a later record changes its %s, then the team fails: immutable identity',
    (_field, change) => {
      const state = fold(member('a', 'provisioning'), member('a', 'active', change));
      expect(state.failure?.reason).toBe('member "a" changed immutable identity fields');
    },
  );

  it.each([
    ['provisioning', 'provisioning'],
    ['active', 'failed'],
    ['failed', 'active'],
    ['active', 'active'],
  ])('given a member %s, when a record says %s, then the team fails: invalid transition', (from, to) => {
    const path =
      from === 'provisioning' ? [member('a', 'provisioning')] : [member('a', 'provisioning'), member('a', from)];
    const state = fold(...path, member('a', to));
    expect(state.failure?.reason).toBe(`invalid ${from} -> ${to} transition for member "a"`);
  });

  it('given a failure, when later valid records arrive, then they are ignored and the roster stays at the last valid state', () => {
    const state = fold(
      member('a', 'provisioning'),
      member('b', 'active'),
      member('a', 'active'),
      member('c', 'provisioning'),
    );
    expect(state.failure?.reason).toBe('member "b" must begin provisioning');
    expect([...state.members.values()].map((m) => [m.snapshot.id, m.snapshot.phase])).toEqual([['a', 'provisioning']]);
  });

  it('given a record of another team (a forked child inherits them), then it is ignored without decoding', () => {
    const foreign = {
      type: 'team/member',
      seq: at(),
      data: { version: 2, teamId: 'ancestor', member: { broken: true } },
    };
    const state = fold(foreign);
    expect(state.failure).toBeUndefined();
    expect(state.hasRecords).toBe(false);
  });

  it('given a record without a valid version or teamId, then the team fails as invalid payload whichever team it names', () => {
    const state = fold({ type: 'team/task', seq: at(), data: { version: -1, teamId: 'ancestor' } });
    expect(state.failure?.reason).toMatch(/^persisted Agent Teams team\/task payload is invalid: data.version/);
  });

  it('given version 3, then the team fails: unsupported version', () => {
    const state = fold({ ...member('a', 'provisioning'), data: { ...member('a', 'provisioning').data, version: 3 } });
    expect(state.failure?.reason).toBe('unsupported Agent Teams event version 3');
  });

  it('given an extra key in a member snapshot, then the team fails naming the field', () => {
    const state = fold(member('a', 'provisioning', { nickname: 'x' }));
    expect(state.failure?.reason).toMatch(/payload is invalid: .*data\.member\.nickname: unexpected key "nickname"/);
  });

  it('given version 1 records, then they are normalised to version 2 and projected the same', () => {
    const state = fold(member('a', 'provisioning', {}, 1), member('a', 'active', {}, 1));
    expect(state.failure).toBeUndefined();
    expect(state.members.get('a' as SessionId)?.snapshot.phase).toBe('active');
  });
});

describe('team task fold', () => {
  it('given tasks with contiguous revisions, then the latest snapshot wins and nextTaskNumber follows the largest id', () => {
    const state = fold(task('task-1', 1), task('task-1', 2, { status: 'in_progress' }), task('task-7', 1));
    expect(state.failure).toBeUndefined();
    expect(state.tasks.get('task-1' as never)?.snapshot.status).toBe('in_progress');
    expect(state.nextTaskNumber).toBe(8);
  });

  it.each([
    [
      'a first record at revision 2',
      [task('task-1', 2)],
      'task "task-1" revision is not contiguous (expected 1, got 2)',
    ],
    [
      'a skipped revision',
      [task('task-1', 1), task('task-1', 3)],
      'task "task-1" revision is not contiguous (expected 2, got 3)',
    ],
    [
      'a repeated revision',
      [task('task-1', 1), task('task-1', 1)],
      'task "task-1" revision is not contiguous (expected 2, got 1)',
    ],
  ])('given %s, then the team fails', (_name, events, reason) => {
    expect(fold(...events).failure?.reason).toBe(reason);
  });

  it('given a task number beyond safe integers, then the team fails', () => {
    expect(fold(task('task-99999999999999999999', 1)).failure?.reason).toBe(
      'task id "task-99999999999999999999" has a number that is not a safe integer',
    );
  });

  it('given a self-blocking task, then the team fails', () => {
    expect(fold(task('task-1', 1, { blockedBy: ['task-1'] })).failure?.reason).toBe('task "task-1" blocks itself');
  });

  it('given a repeated blocker, then the team fails', () => {
    expect(fold(task('task-1', 1), task('task-2', 1, { blockedBy: ['task-1', 'task-1'] })).failure?.reason).toBe(
      'task "task-2" lists blocker "task-1" twice',
    );
  });

  it('given a missing blocker, then the team fails', () => {
    expect(fold(task('task-2', 1, { blockedBy: ['task-9'] })).failure?.reason).toBe(
      'blocker task "task-9" for "task-2" is missing or deleted',
    );
  });

  it('given a live dependent, when its blocker is deleted, then the team fails', () => {
    const state = fold(
      task('task-1', 1),
      task('task-2', 1, { blockedBy: ['task-1'] }),
      task('task-1', 2, { status: 'deleted' }),
    );
    expect(state.failure?.reason).toBe('blocker task "task-1" for "task-2" is missing or deleted');
  });

  it('given a deleted dependent, when its blocker is deleted too, then the graph stays valid', () => {
    const state = fold(
      task('task-1', 1),
      task('task-2', 1, { blockedBy: ['task-1'] }),
      task('task-2', 2, { status: 'deleted', blockedBy: ['task-1'] }),
      task('task-1', 2, { status: 'deleted' }),
    );
    expect(state.failure).toBeUndefined();
  });

  it('given a chain, when its first task is made to wait for its last, then the team fails: cycle', () => {
    const state = fold(
      task('task-1', 1),
      task('task-2', 1, { blockedBy: ['task-1'] }),
      task('task-3', 1, { blockedBy: ['task-2'] }),
      task('task-1', 2, { blockedBy: ['task-3'] }),
    );
    expect(state.failure?.reason).toBe('task dependency cycle includes "task-1"');
  });

  it('given a blocker removed from a task, when the old blocker is deleted, then no dependent remains to fail', () => {
    const state = fold(
      task('task-1', 1),
      task('task-2', 1, { blockedBy: ['task-1'] }),
      task('task-2', 2, { blockedBy: [] }),
      task('task-1', 2, { status: 'deleted' }),
    );
    expect(state.failure).toBeUndefined();
  });
});

describe('legacy mailbox fold', () => {
  it('given queued and delivered records, then each message knows its queued and delivered seqs', () => {
    const q = queued('m-1');
    const d = delivered('m-1');
    const state = fold(q, queued('m-2'), d);
    expect(state.messages.get('m-1' as never)).toMatchObject({ queuedSeq: q.seq, deliveredSeq: d.seq });
    expect(state.messages.get('m-2' as never)?.deliveredSeq).toBeUndefined();
  });

  it('given a version 1 queued record, then its delivery is kept for the read-only view', () => {
    const state = fold(queued('m-1', 'child-a', 1));
    expect(state.messages.get('m-1' as never)).toMatchObject({ sourceVersion: 1, message: { delivery: 'wakeup' } });
  });

  it.each([
    ['queued twice', () => [queued('m-1'), queued('m-1')], 'message "m-1" queued twice'],
    ['delivered before queued', () => [delivered('m-1')], 'message "m-1" delivered before queueing'],
    [
      'delivered to another target',
      () => [queued('m-1'), delivered('m-1', 'child-b')],
      'message "m-1" target changed from "child-a" to "child-b"',
    ],
    ['delivered twice', () => [queued('m-1'), delivered('m-1'), delivered('m-1')], 'message "m-1" delivered twice'],
  ])('given a message %s, then the team fails', (_name, events, reason) => {
    expect(fold(...events()).failure?.reason).toBe(reason);
  });
});

describe('applying a Team record against the rules', () => {
  const record = (id: string, phase: string) => ({
    type: 'team/member' as const,
    data: {
      version: 2 as const,
      teamId: team,
      member: {
        id: id as SessionId,
        name: `name-${id}`,
        description: 'd',
        provider: 'spawn',
        context: 'fresh' as const,
        phase: phase as 'provisioning',
      },
    },
  });

  it('given a record the rules allow, then the next state is on the right', () => {
    const applied = applyTeamRecord(initialTeamState(team), record('a', 'provisioning'), 1);
    expect(isRight(applied) && applied.right.members.has('a' as SessionId)).toBe(true);
  });

  it('given a record that breaks a rule, then the broken rule is on the left and nothing is applied', () => {
    const state = initialTeamState(team);
    expect(applyTeamRecord(state, record('a', 'active'), 1)).toEqual(left('member "a" must begin provisioning'));
    expect(state.members.size).toBe(0);
  });
});

const accumulate = (...events: Array<{ type: string; seq: number; data: unknown }>): TeamAccumulator =>
  events.reduce(
    (state, event) => accumulateTeam(state, streamEvent(event.type, event.seq, event.data)),
    initialTeamAccumulator(team),
  );

describe('the pure Team fold (the deciders read it)', () => {
  it('given a state, when any Team record is folded, then the given state and its maps are unchanged', () => {
    const before = fold(member('child-a', 'provisioning'), task('task-1', 1), queued('m-1'));
    const snapshot = {
      members: [...before.members.entries()],
      names: [...before.memberNames.entries()],
      tasks: [...before.tasks.entries()],
      dependents: [...before.dependents.entries()].map(([id, set]) => [id, [...set]]),
      messages: [...before.messages.entries()],
      nextTaskNumber: before.nextTaskNumber,
    };
    const records = [
      member('child-a', 'active'),
      member('child-b', 'provisioning'),
      task('task-1', 2, { status: 'in_progress' }),
      task('task-2', 1, { blockedBy: ['task-1'] }),
      delivered('m-1'),
      queued('m-2'),
    ];
    for (const event of records) {
      const next = evolveTeam(before, streamEvent(event.type, event.seq, event.data));
      expect(next).not.toBe(before);
      expect(next.failure).toBeUndefined();
    }
    expect({
      members: [...before.members.entries()],
      names: [...before.memberNames.entries()],
      tasks: [...before.tasks.entries()],
      dependents: [...before.dependents.entries()].map(([id, set]) => [id, [...set]]),
      messages: [...before.messages.entries()],
      nextTaskNumber: before.nextTaskNumber,
    }).toEqual(snapshot);
  });

  it('given a candidate that breaks a rule, when applied, then the state it was tried on is unchanged', () => {
    const state = fold(member('a', 'provisioning'), task('task-1', 1), task('task-2', 1, { blockedBy: ['task-1'] }));
    const cycle = task('task-1', 2, { blockedBy: ['task-2'] });
    expect(applyTeamRecord(state, { type: 'team/task', data: cycle.data } as never, 9)).toEqual(
      left('task dependency cycle includes "task-1"'),
    );
    expect(state.tasks.get('task-1' as never)?.snapshot.revision).toBe(1);
    expect([...(state.dependents.get('task-1' as never) ?? [])]).toEqual(['task-2']);
  });

  it('given events that are not Team records, then the same state comes back (nothing is copied)', () => {
    const state = fold(member('a', 'provisioning'));
    expect(evolveTeam(state, streamEvent('user/message', at(), { id: 'x', role: 'user', content: [] }))).toBe(state);
  });
});

describe('the Team accumulator of a big Lead log (the projections fold in place)', () => {
  it('folds mailbox records, member and task snapshots into the same state object once the team has records (no copy per record)', () => {
    const started = accumulate(member('child-a', 'provisioning'), member('child-a', 'active'), task('task-1', 1));
    const records = [
      queued('m-1', 'child-a', 1),
      delivered('m-1'),
      queued('m-2'),
      task('task-1', 2, { status: 'in_progress' }),
      member('child-b', 'provisioning'),
      delivered('m-2'),
    ];
    let state = started;
    for (const event of records) {
      const next = accumulateTeam(state, streamEvent(event.type, event.seq, event.data));
      expect(next).toBe(state);
      state = next;
    }
    expect(state.failure).toBeUndefined();
    expect(
      [...state.messages.values()].map((entry) => [
        entry.message.id,
        entry.sourceVersion,
        entry.deliveredSeq !== undefined,
      ]),
    ).toEqual([
      ['m-1', 1, true],
      ['m-2', 2, true],
    ]);
    expect(state.tasks.get('task-1' as never)?.snapshot.revision).toBe(2);
  });

  it('moves the next task number in place: a new task, as most records, gives the same object', () => {
    const first = accumulateTeam(
      initialTeamAccumulator(team),
      streamEvent('team/member', at(), member('child-a', 'provisioning').data),
    );
    const tasked = accumulateTeam(first, streamEvent('team/task', at(), task('task-7', 1).data));
    expect(tasked).toBe(first);
    expect(tasked.nextTaskNumber).toBe(8);
  });

  it('leaves a given state as it was when the pure fold takes a higher task number', () => {
    const given = fold(member('child-a', 'provisioning'));
    const tasked = evolveTeam(given, streamEvent('team/task', at(), task('task-7', 1).data));
    expect(tasked.nextTaskNumber).toBe(8);
    expect(given.nextTaskNumber).toBe(1);
  });

  it('still gives a new state where a field beside the maps and the task number changes: the first record, the failure', () => {
    const empty = initialTeamAccumulator(team);
    const first = accumulateTeam(empty, streamEvent('team/member', at(), member('child-a', 'provisioning').data));
    expect(first).not.toBe(empty);
    expect(first.hasRecords).toBe(true);
    const tasked = accumulateTeam(first, streamEvent('team/task', at(), task('task-7', 1).data));
    const failed = accumulateTeam(tasked, streamEvent('team/message/delivered', at(), delivered('never-queued').data));
    expect(failed).not.toBe(tasked);
    expect(failed.failure?.reason).toBe('message "never-queued" delivered before queueing');
  });
});

describe('the Team accumulator updates the entries it holds (nothing new per record in steady state)', () => {
  it('updates a delivered message, a member and a task in their own entries', () => {
    const state = accumulate(
      member('child-a', 'provisioning'),
      task('task-1', 1),
      queued('m-1'),
      task('task-2', 1, { blockedBy: ['task-1'] }),
    );
    const held = {
      member: state.members.get('child-a' as never),
      task: state.tasks.get('task-1' as never),
      message: state.messages.get('m-1' as never),
      dependents: state.dependents.get('task-1' as never),
    };
    for (const event of [
      member('child-a', 'active'),
      task('task-1', 2, { status: 'in_progress' }),
      delivered('m-1'),
      task('task-3', 1, { blockedBy: ['task-1'] }),
    ])
      accumulateTeam(state, streamEvent(event.type, event.seq, event.data));
    expect(state.failure).toBeUndefined();
    expect(state.members.get('child-a' as never)).toBe(held.member);
    expect(state.tasks.get('task-1' as never)).toBe(held.task);
    expect(state.messages.get('m-1' as never)).toBe(held.message);
    expect(state.dependents.get('task-1' as never)).toBe(held.dependents);
    expect(held.member?.snapshot.phase).toBe('active');
    expect(held.task?.snapshot.revision).toBe(2);
    expect(held.message?.deliveredSeq).toBeDefined();
    expect([...(held.dependents ?? [])]).toEqual(['task-2', 'task-3']);
  });

  it('moves a task between blockers in place and keeps the graph rules: the old blocker can then be deleted', () => {
    const state = accumulate(
      task('task-1', 1),
      task('task-2', 1),
      task('task-3', 1, { blockedBy: ['task-1'] }),
      task('task-3', 2, { blockedBy: ['task-2'] }),
      task('task-1', 2, { status: 'deleted' }),
    );
    expect(state.failure).toBeUndefined();
    expect([...(state.dependents.get('task-1' as never) ?? [])]).toEqual([]);
    const failed = accumulateTeam(state, streamEvent('team/task', at(), task('task-2', 2, { status: 'deleted' }).data));
    expect(failed.failure?.reason).toBe('blocker task "task-2" for "task-3" is missing or deleted');
  });

  it('leaves the accumulated entries and sets as they were when a decider tries records on it', () => {
    const state = accumulate(
      member('child-a', 'provisioning'),
      task('task-1', 1),
      task('task-2', 1, { blockedBy: ['task-1'] }),
      queued('m-1'),
    );
    const held = {
      member: state.members.get('child-a' as never),
      task: state.tasks.get('task-1' as never),
      message: state.messages.get('m-1' as never),
      dependents: state.dependents.get('task-1' as never),
    };
    const tries = [
      member('child-a', 'active'),
      task('task-1', 2, { status: 'in_progress' }),
      task('task-2', 2, { blockedBy: [] }),
      task('task-3', 1, { blockedBy: ['task-1'] }),
      delivered('m-1'),
    ];
    for (const event of tries) {
      const record = normaliseTeamRecord(event.type as never, event.data as never);
      expect(isRight(applyTeamRecord(state, record, event.seq))).toBe(true);
    }
    expect(state.members.get('child-a' as never)).toBe(held.member);
    expect(held.member?.snapshot.phase).toBe('provisioning');
    expect(state.tasks.get('task-1' as never)).toBe(held.task);
    expect(held.task?.snapshot.revision).toBe(1);
    expect(held.message?.deliveredSeq).toBeUndefined();
    expect(state.dependents.get('task-1' as never)).toBe(held.dependents);
    expect([...(held.dependents ?? [])]).toEqual(['task-2']);
  });
});

describe('the task graph check of a task snapshot', () => {
  /** A tasks map that counts its lookups: the graph check's walk reads it. */
  class CountingMap<K, V> extends Map<K, V> {
    lookups = 0;
    override get(key: K): V | undefined {
      this.lookups += 1;
      return super.get(key);
    }
  }

  it('walks nothing when a live task keeps its blockers (a status or owner change), and still walks a changed edge', () => {
    const tasks = new CountingMap<never, never>();
    let state: TeamAccumulator = { ...initialTeamAccumulator(team), tasks } as TeamAccumulator;
    const chain = Array.from({ length: 40 }, (_, index) =>
      task(`task-${index + 1}`, 1, { blockedBy: index === 0 ? [] : [`task-${index}`] }),
    );
    for (const event of chain) state = accumulateTeam(state, streamEvent(event.type, event.seq, event.data));
    tasks.lookups = 0;
    const started = task('task-40', 2, { status: 'in_progress', blockedBy: ['task-39'] });
    state = accumulateTeam(state, streamEvent(started.type, started.seq, started.data));
    expect(state.failure).toBeUndefined();
    expect(tasks.lookups).toBeLessThanOrEqual(2);
    const cycle = task('task-1', 2, { blockedBy: ['task-40'] });
    state = accumulateTeam(state, streamEvent(cycle.type, cycle.seq, cycle.data));
    expect(state.failure?.reason).toBe('task dependency cycle includes "task-1"');
  });

  it('walks nothing when a new task waits for the tail of a chain: no live task lists the new id', () => {
    const tasks = new CountingMap<never, never>();
    let state: TeamAccumulator = { ...initialTeamAccumulator(team), tasks } as TeamAccumulator;
    const chain = Array.from({ length: 40 }, (_, index) =>
      task(`task-${index + 1}`, 1, { blockedBy: index === 0 ? [] : [`task-${index}`] }),
    );
    for (const event of chain) state = accumulateTeam(state, streamEvent(event.type, event.seq, event.data));
    tasks.lookups = 0;
    const tail = task('task-41', 1, { blockedBy: ['task-40'] });
    state = accumulateTeam(state, streamEvent(tail.type, tail.seq, tail.data));
    expect(state.failure).toBeUndefined();
    expect(tasks.lookups).toBeLessThanOrEqual(2);
  });

  it('checks the blockers again when a deleted task comes back with them', () => {
    const state = accumulate(
      task('task-1', 1),
      task('task-2', 1, { blockedBy: ['task-1'] }),
      task('task-2', 2, { status: 'deleted', blockedBy: ['task-1'] }),
      task('task-1', 2, { status: 'deleted' }),
      task('task-2', 3, { blockedBy: ['task-1'] }),
    );
    expect(state.failure?.reason).toBe('blocker task "task-1" for "task-2" is missing or deleted');
  });
});

describe('a queued message the Team accumulator keeps', () => {
  it('is its own copy of the snapshot, equal to it, with the ids of the Lead and the member it names', () => {
    const record = queued('m-1');
    const state = accumulate(member('child-a', 'provisioning'), member('child-a', 'active'), record);
    const kept = state.messages.get('m-1' as never)?.message;
    expect(kept).toEqual(record.data.message);
    expect(kept).not.toBe(record.data.message);
  });

  it('keeps an id the Team does not hold as it was queued', () => {
    const state = accumulate(member('child-a', 'provisioning'), member('child-a', 'active'), queued('m-1', 'child-b'));
    expect(state.failure).toBeUndefined();
    expect(state.messages.get('m-1' as never)?.message.targetId).toBe('child-b');
  });
});
