import type { TaskId, TeamTaskSnapshot } from '@teamlog/events';

/*
 * docs/rules.md#task-dependency-graph: the whole graph of non-deleted tasks is valid after every task record. The graph was
 * valid before the candidate (a failure stops the fold), so only what the candidate changes can
 * break it: its own blockers, its deletion, and cycles through its new edges. Same verdicts, no
 * whole-graph walk per record.
 */

const isLive = (task: TeamTaskSnapshot | undefined): task is TeamTaskSnapshot =>
  task !== undefined && task.status !== 'deleted';

/** The tasks so far, by id (the candidate's own entry, if any, is its previous snapshot). */
export type TaskSnapshots = ReadonlyMap<TaskId, { readonly snapshot: TeamTaskSnapshot }>;

/** The candidate stands in for its own id: the graph is judged as it would be after the record. */
const lookup = (tasks: TaskSnapshots, candidate: TeamTaskSnapshot, id: TaskId): TeamTaskSnapshot | undefined =>
  id === candidate.id ? candidate : tasks.get(id)?.snapshot;

export const taskGraphViolation = (
  tasks: TaskSnapshots,
  candidate: TeamTaskSnapshot,
  dependents: ReadonlyMap<TaskId, ReadonlySet<TaskId>>,
): string | undefined => {
  if (candidate.status === 'deleted') {
    for (const id of dependents.get(candidate.id) ?? []) {
      if (id !== candidate.id && isLive(lookup(tasks, candidate, id)))
        return `blocker task "${candidate.id}" for "${id}" is missing or deleted`;
    }
    return undefined;
  }
  // Most snapshots change a status or an owner, not the edges: nothing to walk, nothing allocated.
  if (candidate.blockedBy.length === 0) return undefined;
  const { blockedBy } = candidate;
  for (let index = 0; index < blockedBy.length; index += 1) {
    const blocker = blockedBy[index] as TaskId;
    if (blocker === candidate.id) return `task "${candidate.id}" blocks itself`;
    if (listedBefore(blockedBy, index)) return `task "${candidate.id}" lists blocker "${blocker}" twice`;
    if (!isLive(lookup(tasks, candidate, blocker)))
      return `blocker task "${blocker}" for "${candidate.id}" is missing or deleted`;
  }
  return hasLiveDependent(tasks, candidate, dependents) && reachesItself(tasks, candidate)
    ? `task dependency cycle includes "${candidate.id}"`
    : undefined;
};

/**
 * A cycle through the candidate ends in a live task that lists the candidate as a blocker, so with
 * no such task there is nothing to walk: a new task (no live task can list an id that was never
 * live) or the tail of a chain.
 */
const hasLiveDependent = (
  tasks: TaskSnapshots,
  candidate: TeamTaskSnapshot,
  dependents: ReadonlyMap<TaskId, ReadonlySet<TaskId>>,
): boolean => {
  const ids = dependents.get(candidate.id);
  if (ids === undefined) return false;
  for (const id of ids) if (id !== candidate.id && isLive(tasks.get(id)?.snapshot)) return true;
  return false;
};

/*
 * Whether the blocker at `index` is listed before it. A task lists a blocker or two, so a scan of
 * the list costs less than a set (whose `clear` makes a new table); a long list is read through one.
 */
const shortList = 8;

const listedBefore = (blockedBy: readonly TaskId[], index: number): boolean => {
  const blocker = blockedBy[index] as TaskId;
  if (blockedBy.length <= shortList) {
    for (let before = 0; before < index; before += 1) if (blockedBy[before] === blocker) return true;
    return false;
  }
  const { seen } = scratch;
  if (index === 0) seen.clear();
  if (seen.has(blocker)) return true;
  seen.add(blocker);
  return false;
};

/* The checks' working sets, reused (the checks are synchronous and never nested): no Set or array per record. */
const scratch = { seen: new Set<TaskId>(), visited: new Set<TaskId>(), pending: [] as TaskId[] };

const reachesItself = (tasks: TaskSnapshots, candidate: TeamTaskSnapshot): boolean => {
  const { visited, pending } = scratch;
  visited.clear();
  pending.length = 0;
  for (const blocker of candidate.blockedBy) pending.push(blocker);
  while (pending.length > 0) {
    const id = pending.pop() as TaskId;
    if (id === candidate.id) return true;
    if (visited.has(id)) continue;
    visited.add(id);
    const task = lookup(tasks, candidate, id);
    if (isLive(task)) for (const blocker of task.blockedBy) pending.push(blocker);
  }
  return false;
};

const taskPrefix = 'task-';

/** `task-<n>` ids carry a number; the next task number is one past the largest seen. */
export const taskNumber = (id: TaskId): number | 'not-numeric' | 'unsafe' => {
  if (id.length <= taskPrefix.length || !id.startsWith(taskPrefix)) return 'not-numeric';
  // Read digit by digit: no match array or substring per task record.
  let n = 0;
  for (let index = taskPrefix.length; index < id.length; index += 1) {
    const digit = id.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return 'not-numeric';
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n) ? n : 'unsafe';
};
