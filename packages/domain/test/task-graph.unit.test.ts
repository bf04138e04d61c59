import * as fc from 'fast-check';
import type { PositiveInteger, TaskId, TaskStatus, TeamTaskSnapshot } from '@teamlog/events';
import { type TaskSnapshots, taskGraphViolation } from '@teamlog/domain';

/*
 * The check as it was, kept here as the reference (docs/rules.md#task-dependency-graph): a set for
 * the listed blockers, and a walk from the candidate's blockers through live tasks for every
 * record with blockers, to see whether they lead back to it.
 */
const byWalk = (
  tasks: TaskSnapshots,
  candidate: TeamTaskSnapshot,
  dependents: ReadonlyMap<TaskId, ReadonlySet<TaskId>>,
): string | undefined => {
  const lookup = (id: TaskId) => (id === candidate.id ? candidate : tasks.get(id)?.snapshot);
  const isLive = (task: TeamTaskSnapshot | undefined) => task !== undefined && task.status !== 'deleted';
  if (candidate.status === 'deleted') {
    for (const id of dependents.get(candidate.id) ?? [])
      if (id !== candidate.id && isLive(lookup(id)))
        return `blocker task "${candidate.id}" for "${id}" is missing or deleted`;
    return undefined;
  }
  const seen = new Set<TaskId>();
  for (const blocker of candidate.blockedBy) {
    if (blocker === candidate.id) return `task "${candidate.id}" blocks itself`;
    if (seen.has(blocker)) return `task "${candidate.id}" lists blocker "${blocker}" twice`;
    seen.add(blocker);
    if (!isLive(lookup(blocker))) return `blocker task "${blocker}" for "${candidate.id}" is missing or deleted`;
  }
  const visited = new Set<TaskId>();
  const pending = [...candidate.blockedBy];
  while (pending.length > 0) {
    const id = pending.pop() as TaskId;
    if (id === candidate.id) return `task dependency cycle includes "${candidate.id}"`;
    if (visited.has(id)) continue;
    visited.add(id);
    const task = lookup(id);
    if (task !== undefined && isLive(task)) pending.push(...task.blockedBy);
  }
  return undefined;
};

const ids = ['task-1', 'task-2', 'task-3', 'task-4', 'task-5', 'task-6'] as TaskId[];
const statuses: TaskStatus[] = ['pending', 'in_progress', 'completed', 'deleted'];

const snapshot = fc.record({
  id: fc.constantFrom(...ids),
  status: fc.constantFrom(...statuses),
  blockedBy: fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 3 }),
});

/* A candidate may list a blocker twice, in a short list or a long one (read through a set). */
const candidateSnapshot = fc.record({
  id: fc.constantFrom(...ids),
  status: fc.constantFrom(...statuses),
  blockedBy: fc.oneof(
    fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 3 }),
    fc.array(fc.constantFrom(...ids), { maxLength: 4 }),
    fc.array(fc.constantFrom(...ids), { minLength: 9, maxLength: 12 }),
  ),
});

type Drawn = { readonly id: TaskId; readonly status: TaskStatus; readonly blockedBy: TaskId[] };

const taskOf = ({ id, status, blockedBy }: Drawn): TeamTaskSnapshot => ({
  id,
  revision: 1 as PositiveInteger,
  subject: 's',
  description: 'd',
  status,
  blockedBy,
  writeScopes: [],
});

/** The tasks and their dependents, as the fold keeps them (every task's edges, deleted ones' too). */
const graphOf = (drawn: readonly Drawn[]) => {
  const tasks = new Map<TaskId, { readonly snapshot: TeamTaskSnapshot }>();
  for (const task of drawn) tasks.set(task.id, { snapshot: taskOf(task) });
  const dependents = new Map<TaskId, Set<TaskId>>();
  for (const { snapshot } of tasks.values())
    for (const blocker of snapshot.blockedBy)
      dependents.set(blocker, (dependents.get(blocker) ?? new Set()).add(snapshot.id));
  return { tasks, dependents };
};

describe('the task graph check', () => {
  it('gives the verdicts of the set and the walk on generated graphs, cycles and blockers listed twice included', () => {
    let cycles = 0;
    let twice = 0;
    fc.assert(
      fc.property(fc.array(snapshot, { maxLength: 8 }), candidateSnapshot, (drawn, drawnCandidate) => {
        const { tasks, dependents } = graphOf(drawn);
        const candidate = taskOf(drawnCandidate);
        const expected = byWalk(tasks, candidate, dependents);
        if (expected?.startsWith('task dependency cycle')) cycles += 1;
        if (expected?.endsWith('twice')) twice += 1;
        expect(taskGraphViolation(tasks, candidate, dependents)).toBe(expected);
      }),
      { seed: 20261205, numRuns: 5000 },
    );
    // The generated graphs close cycles often enough for the agreement to mean something.
    expect(cycles).toBeGreaterThan(50);
    expect(twice).toBeGreaterThan(100);
  });

  it('given a chain, when a new task waits for its tail, then no cycle: the new id has no dependents', () => {
    const { tasks, dependents } = graphOf([
      { id: ids[0] as TaskId, status: 'pending', blockedBy: [] },
      { id: ids[1] as TaskId, status: 'pending', blockedBy: [ids[0] as TaskId] },
    ]);
    const next = taskOf({ id: ids[2] as TaskId, status: 'pending', blockedBy: [ids[1] as TaskId] });
    expect(taskGraphViolation(tasks, next, dependents)).toBeUndefined();
    const closing = taskOf({ id: ids[0] as TaskId, status: 'pending', blockedBy: [ids[1] as TaskId] });
    expect(taskGraphViolation(tasks, closing, dependents)).toBe('task dependency cycle includes "task-1"');
  });
});
