import { type Either, isLeft, left, right } from 'fp-ts/Either';
import {
  type EventOf,
  type PositiveInteger,
  type SessionId,
  type StreamEvent,
  type TaskId,
  type TaskStatus,
  type TeamId,
  type TeamMemberSnapshot,
  type TeamRecord,
  type TeamTaskSnapshot,
  leadOf,
  teamIdOf,
} from '@teamlog/events';
import type { Decider } from './decider';
import {
  InvalidMemberName,
  MemberNotFound,
  TaskNotFound,
  TaskRevisionConflict,
  type TeamCommandRejected,
  TeamLogFailed,
  TeamRuleViolation,
  UnknownTaskOwner,
} from './team-command-rejection';
import { leadName } from './team-message-route';
import { type TeamState, applyTeamRecord, cloneTeamState, evolveTeam, initialTeamState } from './team-state';

/** The Team as the Lead stream holds it, and that stream's revision. */
export interface TeamStreamState {
  readonly team: TeamState;
  readonly revision: number;
}

export const initialTeamStreamState = (teamId: TeamId): TeamStreamState => ({
  team: initialTeamState(teamId),
  revision: -1,
});

export const evolveTeamStream = (state: TeamStreamState, event: StreamEvent): TeamStreamState => ({
  team: evolveTeam(state.team, event),
  revision: event.seq,
});

export type MemberSpec = Omit<TeamMemberSnapshot, 'phase' | 'error'>;

export interface TaskSpec {
  readonly subject: string;
  readonly description: string;
  readonly blockedBy: readonly TaskId[];
  readonly writeScopes: readonly string[];
  readonly ownerId?: SessionId;
}

/** A task change; `ownerId: null` releases the task. */
export interface TaskChanges {
  readonly subject?: string;
  readonly description?: string;
  readonly status?: TaskStatus;
  readonly ownerId?: SessionId | null;
  readonly blockedBy?: readonly TaskId[];
  readonly writeScopes?: readonly string[];
}

export type MemberOutcome = { readonly phase: 'active' } | { readonly phase: 'failed'; readonly error: string };

export type TeamCommand =
  | { readonly type: 'provision-member'; readonly member: MemberSpec }
  | { readonly type: 'settle-member'; readonly memberId: SessionId; readonly outcome: MemberOutcome }
  | { readonly type: 'create-task'; readonly task: TaskSpec }
  | {
      readonly type: 'update-task';
      readonly taskId: TaskId;
      readonly expectedRevision: number;
      readonly changes: TaskChanges;
    };

export type TeamWriteEvent = EventOf<'team/member'> | EventOf<'team/task'>;

type MemberRecord = Extract<TeamRecord, { readonly type: 'team/member' }>;
type TaskRecord = Extract<TeamRecord, { readonly type: 'team/task' }>;

const memberRecord = (teamId: TeamId, member: TeamMemberSnapshot): MemberRecord => ({
  type: 'team/member',
  data: { version: 2, teamId, member },
});
const taskRecord = (teamId: TeamId, task: TeamTaskSnapshot): TaskRecord => ({
  type: 'team/task',
  data: { version: 2, teamId, task },
});

/** Try the candidate on a copy with the Team rules (docs/rules.md#decide-before-write); a refused candidate is never written. */
const checked = (
  state: TeamStreamState,
  record: MemberRecord | TaskRecord,
): Either<TeamCommandRejected, TeamWriteEvent[]> => {
  const applied = applyTeamRecord(cloneTeamState(state.team), record, state.revision + 1);
  return isLeft(applied) ? left(new TeamRuleViolation(applied.left)) : right([record]);
};

const isInTeam = (team: TeamState, id: SessionId): boolean => id === leadOf(team.teamId) || team.members.has(id);

const provision = (state: TeamStreamState, member: MemberSpec): Either<TeamCommandRejected, TeamWriteEvent[]> => {
  if (member.name.trim().length === 0) return left(new InvalidMemberName(member.name, 'is empty'));
  if (member.name === leadName) return left(new InvalidMemberName(member.name, 'addresses the Lead'));
  return checked(state, memberRecord(state.team.teamId, { ...member, phase: 'provisioning' }));
};

const settle = (
  state: TeamStreamState,
  memberId: SessionId,
  outcome: MemberOutcome,
): Either<TeamCommandRejected, TeamWriteEvent[]> => {
  const prior = state.team.members.get(memberId);
  if (prior === undefined) return left(new MemberNotFound(memberId));
  // Settling twice to the same outcome (a recovery racing the spawn) writes nothing more.
  if (prior.snapshot.phase === outcome.phase) return right([]);
  const { error: _error, ...identity } = prior.snapshot;
  return checked(state, memberRecord(state.team.teamId, { ...identity, ...outcome }));
};

const createTask = (state: TeamStreamState, spec: TaskSpec): Either<TeamCommandRejected, TeamWriteEvent[]> => {
  if (spec.ownerId !== undefined && !isInTeam(state.team, spec.ownerId))
    return left(new UnknownTaskOwner(spec.ownerId));
  const task: TeamTaskSnapshot = {
    id: `task-${state.team.nextTaskNumber}` as TaskId,
    revision: 1 as PositiveInteger,
    subject: spec.subject,
    description: spec.description,
    status: 'pending',
    blockedBy: spec.blockedBy,
    writeScopes: spec.writeScopes,
    ...(spec.ownerId === undefined ? {} : { ownerId: spec.ownerId }),
  };
  return checked(state, taskRecord(state.team.teamId, task));
};

const updateTask = (
  state: TeamStreamState,
  taskId: TaskId,
  expectedRevision: number,
  changes: TaskChanges,
): Either<TeamCommandRejected, TeamWriteEvent[]> => {
  const prior = state.team.tasks.get(taskId)?.snapshot;
  if (prior === undefined) return left(new TaskNotFound(taskId));
  if (prior.revision !== expectedRevision)
    return left(new TaskRevisionConflict(taskId, expectedRevision, prior.revision));
  const { ownerId, ...rest } = changes;
  if (ownerId !== undefined && ownerId !== null && !isInTeam(state.team, ownerId))
    return left(new UnknownTaskOwner(ownerId));
  const { ownerId: priorOwner, ...priorRest } = prior;
  const owner = ownerId === undefined ? priorOwner : ownerId === null ? undefined : ownerId;
  const task: TeamTaskSnapshot = {
    ...priorRest,
    ...rest,
    revision: (prior.revision + 1) as PositiveInteger,
    ...(owner === undefined ? {} : { ownerId: owner }),
  };
  return checked(state, taskRecord(state.team.teamId, task));
};

/** Roster and task changes, checked with the Team rules before they are written (docs/rules.md#decide-before-write). */
export const decideTeam = (
  command: TeamCommand,
  state: TeamStreamState,
): Either<TeamCommandRejected, TeamWriteEvent[]> => {
  if (state.team.failure !== undefined) return left(new TeamLogFailed(state.team.failure));
  switch (command.type) {
    case 'provision-member':
      return provision(state, command.member);
    case 'settle-member':
      return settle(state, command.memberId, command.outcome);
    case 'create-task':
      return createTask(state, command.task);
    case 'update-task':
      return updateTask(state, command.taskId, command.expectedRevision, command.changes);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

/** The team roster and tasks: the aggregate over the Lead's stream (the team id is the Lead's session id). */
export const teamRoster: Decider<TeamCommand, TeamWriteEvent, TeamStreamState, TeamCommandRejected> = {
  decide: decideTeam,
  evolve: evolveTeamStream,
  initialState: (lead) => initialTeamStreamState(teamIdOf(lead)),
};
