import type { PositiveInteger, SessionId, TaskId, TeamTaskSnapshot } from '@teamlog/events';
import { decideTaskClaim } from '../src/task-claim';

const me = 'me' as SessionId;
const task = (id: string, fields: Partial<TeamTaskSnapshot> = {}): TeamTaskSnapshot => ({
  id: id as TaskId,
  revision: 3 as PositiveInteger,
  subject: id,
  description: '',
  status: 'pending',
  blockedBy: [],
  writeScopes: [],
  ...fields,
});
const decide = (id: string, tasks: readonly TeamTaskSnapshot[]) =>
  decideTaskClaim(id as TaskId, tasks, me, (sessionId) => `name of ${sessionId}`);

describe('decideTaskClaim', () => {
  it('given a free pending task, then the claim is a compare-and-set at the revision read: owner the caller, in progress', () => {
    expect(decide('task-1', [task('task-1')])).toEqual({
      _tag: 'Right',
      right: { kind: 'update', update: { expectedRevision: 3, ownerId: me, status: 'in_progress' } },
    });
  });

  it('given a pending task the caller already owns, then the claim still moves it to in progress', () => {
    expect(decide('task-1', [task('task-1', { ownerId: me })])).toMatchObject({ right: { kind: 'update' } });
  });

  it('given a blocker that was deleted, then it no longer blocks', () => {
    expect(
      decide('task-2', [task('task-1', { status: 'deleted' }), task('task-2', { blockedBy: ['task-1' as TaskId] })]),
    ).toMatchObject({ right: { kind: 'update' } });
  });

  it('given a deleted task, or one blocked by an in-progress task, then the claim is refused with the reason', () => {
    expect(decide('task-1', [task('task-1', { status: 'deleted' })])).toMatchObject({
      left: { code: 'TaskNotClaimable', reason: 'it is deleted' },
    });
    const blocked = decide('task-2', [
      task('task-1', { status: 'in_progress' }),
      task('task-2', { blockedBy: ['task-1' as TaskId] }),
    ]);
    expect(blocked).toMatchObject({ left: { reason: 'it is blocked by task-1, not yet completed' } });
  });

  it('given another owner, then the refusal names the owner by name', () => {
    expect(decide('task-1', [task('task-1', { ownerId: 'other' as SessionId })])).toMatchObject({
      left: { reason: 'it is owned by name of other' },
    });
  });
});
