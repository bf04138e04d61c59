import type { CloseReason, MessageId, SessionId, TaskId } from '@teamlog/events';

/* Refusals decided by the toolset itself, before or instead of the engine. */

/** No tool of the Team toolset has this name. */
export class UnknownTool extends Error {
  override readonly name = 'UnknownTool';
  constructor(
    readonly toolName: string,
    readonly available: readonly string[],
  ) {
    super(`no Team tool "${toolName}"`);
  }
}

/** The tool exists but not for this session's role (members do not spawn). */
export class ToolNotForRole extends Error {
  override readonly name = 'ToolNotForRole';
  constructor(
    readonly toolName: string,
    readonly role: 'lead' | 'member',
  ) {
    super(`${toolName} is not a ${role}'s tool`);
  }
}

/** The arguments do not decode with the tool's codec; nothing reached the engine. */
export class InvalidToolArguments extends Error {
  override readonly name = 'InvalidToolArguments';
  constructor(
    readonly toolName: string,
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${toolName} arguments ${path}: ${detail}`);
  }
}

/** A member address (name, session id or "lead") that names nobody on the team. */
export class UnknownMember extends Error {
  override readonly name = 'UnknownMember';
  constructor(readonly address: string) {
    super(`no team member "${address}"`);
  }
}

/** A task that cannot be claimed as it is (finished, someone else's, or blocked). */
export class TaskNotClaimable extends Error {
  override readonly name = 'TaskNotClaimable';
  constructor(
    readonly taskId: TaskId,
    readonly reason: string,
  ) {
    super(`task "${taskId}" cannot be claimed: ${reason}`);
  }
}

/** An update_task call that names no change; it would only bump the revision. */
export class NothingToUpdate extends Error {
  override readonly name = 'NothingToUpdate';
  constructor(readonly taskId: TaskId) {
    super(`update of task "${taskId}" names no change`);
  }
}

/** The session's own stream does not say it belongs to a team (no `teamlog/session/created` with a team). */
export class NotATeamSession extends Error {
  override readonly name = 'NotATeamSession';
  constructor(readonly sessionId: SessionId) {
    super(`session "${sessionId}" is not the Lead or a member of a teamlog team`);
  }
}

/** read_inbox was asked for messages after an id its inbox never accepted. */
export class UnknownInboxMessage extends Error {
  override readonly name = 'UnknownInboxMessage';
  constructor(readonly messageId: MessageId) {
    super(`no message "${messageId}" in this inbox`);
  }
}

/** A tool that writes, called by a session that is closed (killed, cancelled, lost or failed): nothing is written. */
export class SessionClosedForWrites extends Error {
  override readonly name = 'SessionClosedForWrites';
  constructor(
    readonly toolName: string,
    readonly reason: CloseReason,
  ) {
    super(`${toolName}: the session is closed (${reason})`);
  }
}
