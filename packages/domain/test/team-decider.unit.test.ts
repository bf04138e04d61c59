import { isLeft, isRight } from 'fp-ts/Either';
import {
  type SessionId,
  type TaskId,
  type TeamId,
  type TeamTaskSnapshot,
  checkedStreamEvent,
  streamEvent,
} from '@teamlog/events';
import {
  type TeamCommand,
  type TeamStreamState,
  decideTeam,
  evolveTeamStream,
  initialTeamStreamState,
} from '@teamlog/domain';

const teamId = 'lead-1' as TeamId;
const memberA = 'member-a' as SessionId;

/** Decide and apply each command in turn, as the service does; throws on the first refusal. */
const run = (...commands: TeamCommand[]): TeamStreamState =>
  commands.reduce((state, command) => {
    const decided = decideTeam(command, state);
    if (isLeft(decided)) throw decided.left;
    return decided.right.reduce(
      (next, event, index) => evolveTeamStream(next, checkedStreamEvent(event, state.revision + 1 + index)),
      state,
    );
  }, initialTeamStreamState(teamId));

const provision = (id: SessionId = memberA, name = 'researcher'): TeamCommand => ({
  type: 'provision-member',
  member: { id, name, description: 'finds things', provider: 'scripted', context: 'fresh' },
});
const task = (subject: string, blockedBy: string[] = []): TeamCommand => ({
  type: 'create-task',
  task: { subject, description: `${subject} well`, blockedBy: blockedBy as TaskId[], writeScopes: [] },
});
const update = (taskId: string, expectedRevision: number, changes: object): TeamCommand => ({
  type: 'update-task',
  taskId: taskId as TaskId,
  expectedRevision,
  changes,
});
const refusal = (command: TeamCommand, state: TeamStreamState) => {
  const decided = decideTeam(command, state);
  return isLeft(decided) ? decided.left : undefined;
};
const taskOf = (state: TeamStreamState, id: string): TeamTaskSnapshot | undefined =>
  state.team.tasks.get(id as TaskId)?.snapshot;

describe('team decider', () => {
  it('given no member, when one is provisioned then activated, then two team/member v2 records are written', () => {
    const state = run(provision());
    const decided = decideTeam({ type: 'settle-member', memberId: memberA, outcome: { phase: 'active' } }, state);
    expect(isRight(decided) && decided.right).toEqual([
      {
        type: 'team/member',
        data: {
          version: 2,
          teamId,
          member: {
            id: memberA,
            name: 'researcher',
            description: 'finds things',
            provider: 'scripted',
            context: 'fresh',
            phase: 'active',
          },
        },
      },
    ]);
  });

  it('given a member, when another member takes its name, then TeamRuleViolation with the wording of the rule (docs/rules.md#member-names-never-reused)', () => {
    const refused = refusal(provision('member-b' as SessionId, 'researcher'), run(provision()));
    expect(refused).toEqual({
      code: 'TeamRuleViolation',
      reason: 'member name "researcher" is reused by another member',
    });
  });

  it('given a failed member, when it is activated, then TeamRuleViolation (invalid failed -> active transition)', () => {
    const state = run(provision(), {
      type: 'settle-member',
      memberId: memberA,
      outcome: { phase: 'failed', error: 'no capacity' },
    });
    expect(refusal({ type: 'settle-member', memberId: memberA, outcome: { phase: 'active' } }, state)).toMatchObject({
      code: 'TeamRuleViolation',
    });
    expect(state.team.members.get(memberA)?.snapshot).toMatchObject({ phase: 'failed', error: 'no capacity' });
  });

  it('given an active member, when it is activated again (a racing recovery), then nothing is written', () => {
    const state = run(provision(), { type: 'settle-member', memberId: memberA, outcome: { phase: 'active' } });
    expect(decideTeam({ type: 'settle-member', memberId: memberA, outcome: { phase: 'active' } }, state)).toEqual({
      _tag: 'Right',
      right: [],
    });
  });

  it.each(['lead', '', '  '])('given any team, when a member is named %j, then InvalidMemberName', (name) => {
    expect(refusal(provision(memberA, name), run())).toMatchObject({ code: 'InvalidMemberName' });
  });

  it('given no such member, when it is settled, then MemberNotFound', () => {
    expect(refusal({ type: 'settle-member', memberId: memberA, outcome: { phase: 'active' } }, run())).toMatchObject({
      code: 'MemberNotFound',
    });
  });

  it('given tasks, when a task is created, then it gets the next task number at revision 1, pending', () => {
    const state = run(task('research'), task('implement', ['task-1']));
    expect(taskOf(state, 'task-2')).toEqual({
      id: 'task-2',
      revision: 1,
      subject: 'implement',
      description: 'implement well',
      status: 'pending',
      blockedBy: ['task-1'],
      writeScopes: [],
    });
  });

  it('given a task at revision 1, when it is updated expecting revision 1, then revision 2 holds the change', () => {
    const state = run(task('research'), update('task-1', 1, { status: 'in_progress', ownerId: 'lead-1' }));
    expect(taskOf(state, 'task-1')).toMatchObject({ revision: 2, status: 'in_progress', ownerId: 'lead-1' });
    const released = run(
      task('research'),
      update('task-1', 1, { ownerId: 'lead-1' }),
      update('task-1', 2, { ownerId: null }),
    );
    expect(taskOf(released, 'task-1')).not.toHaveProperty('ownerId');
  });

  it('given a task at revision 2, when it is updated expecting revision 1, then TaskRevisionConflict names both revisions', () => {
    const state = run(task('research'), update('task-1', 1, { status: 'in_progress' }));
    expect(refusal(update('task-1', 1, { status: 'completed' }), state)).toEqual({
      code: 'TaskRevisionConflict',
      taskId: 'task-1' as TaskId,
      expected: 1,
      actual: 2,
    });
  });

  it('given tasks, when a change would form a dependency cycle, then TeamRuleViolation and nothing is written', () => {
    const state = run(task('a'), task('b', ['task-1']));
    expect(refusal(update('task-1', 1, { blockedBy: ['task-2'] }), state)).toEqual({
      code: 'TeamRuleViolation',
      reason: 'task dependency cycle includes "task-1"',
    });
  });

  it.each([
    ['a missing blocker', task('a', ['task-9'])],
    ['a self-block', update('task-1', 1, { blockedBy: ['task-1'] })],
    ['a repeated blocker', task('c', ['task-1', 'task-1'])],
    ['deleting a task another depends on', update('task-1', 1, { status: 'deleted' })],
  ])('given tasks, when %s is tried, then TeamRuleViolation', (_case, command) => {
    expect(refusal(command, run(task('a'), task('b', ['task-1'])))).toMatchObject({ code: 'TeamRuleViolation' });
  });

  it('given no such task, when it is updated, then TaskNotFound', () => {
    expect(refusal(update('task-7', 1, {}), run())).toMatchObject({ code: 'TaskNotFound' });
  });

  it('given a session outside the team, when it is made a task owner, then UnknownTaskOwner', () => {
    expect(
      refusal(
        {
          type: 'create-task',
          task: { subject: 's', description: 'd', blockedBy: [], writeScopes: [], ownerId: 'stranger' as SessionId },
        },
        run(),
      ),
    ).toMatchObject({ code: 'UnknownTaskOwner' });
  });

  it('given a Lead log whose Team fold failed, when anything is decided, then TeamLogFailed', () => {
    const failed = evolveTeamStream(
      initialTeamStreamState(teamId),
      streamEvent('team/member', 0, {
        version: 2,
        teamId,
        member: { id: 'x', name: 'x', description: '', provider: 'p', context: 'fresh', phase: 'active' },
      }),
    );
    expect(refusal(task('a'), failed)).toMatchObject({ code: 'TeamLogFailed' });
  });
});
