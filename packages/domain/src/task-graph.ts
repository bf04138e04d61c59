import type { TaskId, TeamTaskSnapshot } from '@teamlog/events';

/*
 * docs/rules.md#task-dependency-graph: the whole graph of non-deleted tasks is valid after every task record. The graph was
 * valid before the candidate (a failure stops the fold), so only what the candidate changes can
 * break it: its own blockers, its deletion, and cycles through its new edges. Same verdicts, no
 * whole-graph walk per record.
 */

const isLive = (task: TeamTaskSnapshot | undefined): task is TeamTaskSnapshot =>
  task !== undefined && task.status !== 'deleted';

export type TaskLookup = (id: TaskId) => TeamTaskSnapshot | undefined;

export const taskGraphViolation = (
  tasks: TaskLookup,
  candidate: TeamTaskSnapshot,
  dependents: ReadonlyMap<TaskId, ReadonlySet<TaskId>>,
): string | undefined => {
  if (candidate.status === 'deleted') {
    const liveDependent = [...(dependents.get(candidate.id) ?? [])].find(
      (id) => id !== candidate.id && isLive(tasks(id)),
    );
    return liveDependent === undefined
      ? undefined
      : `blocker task "${candidate.id}" for "${liveDependent}" is missing or deleted`;
  }
  const seen = new Set<TaskId>();
  for (const blocker of candidate.blockedBy) {
    if (blocker === candidate.id) return `task "${candidate.id}" blocks itself`;
    if (seen.has(blocker)) return `task "${candidate.id}" lists blocker "${blocker}" twice`;
    seen.add(blocker);
    if (!isLive(tasks(blocker))) return `blocker task "${blocker}" for "${candidate.id}" is missing or deleted`;
  }
  return reachesItself(tasks, candidate) ? `task dependency cycle includes "${candidate.id}"` : undefined;
};

const reachesItself = (tasks: TaskLookup, candidate: TeamTaskSnapshot): boolean => {
  const visited = new Set<TaskId>();
  const pending: TaskId[] = [...candidate.blockedBy];
  while (pending.length > 0) {
    const id = pending.pop() as TaskId;
    if (id === candidate.id) return true;
    if (visited.has(id)) continue;
    visited.add(id);
    const task = tasks(id);
    if (isLive(task)) pending.push(...task.blockedBy);
  }
  return false;
};

/** `task-<n>` ids carry a number; the next task number is one past the largest seen. */
export const taskNumber = (id: TaskId): number | 'not-numeric' | 'unsafe' => {
  const match = /^task-(\d+)$/.exec(id);
  if (match === null) return 'not-numeric';
  const n = Number(match[1]);
  return Number.isSafeInteger(n) ? n : 'unsafe';
};
