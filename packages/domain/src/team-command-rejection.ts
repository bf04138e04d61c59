import type { SessionId, TaskId } from '@teamlog/events';
import type { TeamFailure } from './team-failure';

/** Why a roster or task change was refused. Nothing is written. */
export abstract class TeamCommandRejected extends Error {
  abstract override readonly name: string;
}

/** The candidate record breaks a Team rule (docs/rules.md#decide-before-write; the reason is the rule's wording). */
export class TeamRuleViolation extends TeamCommandRejected {
  override readonly name = 'TeamRuleViolation';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Compare-and-set on a task failed: someone changed it since the caller read it. */
export class TaskRevisionConflict extends TeamCommandRejected {
  override readonly name = 'TaskRevisionConflict';
  constructor(
    readonly taskId: TaskId,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`task "${taskId}" is at revision ${actual}, not ${expected}`);
  }
}

export class TaskNotFound extends TeamCommandRejected {
  override readonly name = 'TaskNotFound';
  constructor(readonly taskId: TaskId) {
    super(`no task "${taskId}"`);
  }
}

export class MemberNotFound extends TeamCommandRejected {
  override readonly name = 'MemberNotFound';
  constructor(readonly member: string) {
    super(`no team member "${member}"`);
  }
}

/** Member names are addresses: empty names and "lead" (the Lead's address) are refused. */
export class InvalidMemberName extends TeamCommandRejected {
  override readonly name = 'InvalidMemberName';
  constructor(
    readonly memberName: string,
    detail: string,
  ) {
    super(`member name ${JSON.stringify(memberName)} ${detail}`);
  }
}

/** A task owner must be the Lead or a member of the team. */
export class UnknownTaskOwner extends TeamCommandRejected {
  override readonly name = 'UnknownTaskOwner';
  constructor(readonly ownerId: SessionId) {
    super(`task owner "${ownerId}" is not the Lead or a member of the team`);
  }
}

/** The Lead log already holds a failing Team record; teamlog adds nothing after it. */
export class TeamLogFailed extends TeamCommandRejected {
  override readonly name = 'TeamLogFailed';
  constructor(readonly failure: TeamFailure) {
    super(`the team's log failed at seq ${failure.seq} (${failure.type}): ${failure.reason}`);
  }
}
