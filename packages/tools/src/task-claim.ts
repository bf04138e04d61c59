import { type Either, left, right } from 'fp-ts/Either';
import type { SessionId, TaskId, TeamTaskSnapshot } from '@teamlog/events';
import type { TaskUpdate } from '@teamlog/team';
import type { ToolFault } from './tool-errors';

/** A claim either writes this compare-and-set update, or finds the task already the caller's. */
export type TaskClaim =
  | { readonly kind: 'update'; readonly update: TaskUpdate }
  | { readonly kind: 'already-yours'; readonly task: TeamTaskSnapshot };

const finished = (status: TeamTaskSnapshot['status']): boolean => status === 'completed' || status === 'deleted';

/**
 * Claiming = owner the caller, status in_progress, at the revision just read (so two claimants
 * racing for one task cannot both win: the second gets TaskRevisionConflict). A finished task,
 * another session's task, or one with an unfinished blocker cannot be claimed.
 */
export const decideTaskClaim = (
  taskId: TaskId,
  tasks: readonly TeamTaskSnapshot[],
  caller: SessionId,
  nameOf: (sessionId: SessionId) => string,
): Either<ToolFault, TaskClaim> => {
  const task = tasks.find((candidate) => candidate.id === taskId);
  if (task === undefined) return left({ code: 'TaskNotFound', taskId });
  if (finished(task.status)) return left({ code: 'TaskNotClaimable', taskId, reason: `it is ${task.status}` });
  if (task.ownerId !== undefined && task.ownerId !== caller)
    return left({ code: 'TaskNotClaimable', taskId, reason: `it is owned by ${nameOf(task.ownerId)}` });
  if (task.ownerId === caller && task.status === 'in_progress') return right({ kind: 'already-yours', task });
  const open = task.blockedBy.filter(
    (blocker) => !finished(tasks.find((candidate) => candidate.id === blocker)?.status ?? 'deleted'),
  );
  if (open.length > 0)
    return left({ code: 'TaskNotClaimable', taskId, reason: `it is blocked by ${open.join(', ')}, not yet completed` });
  return right({ kind: 'update', update: { expectedRevision: task.revision, ownerId: caller, status: 'in_progress' } });
};
