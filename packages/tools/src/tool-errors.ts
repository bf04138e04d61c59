import type { TeamRejection } from '@teamlog/domain';
import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';
import type { CloseReason, MessageId, SessionId, TaskId } from '@teamlog/events';

/*
 * The one error of the toolset: a ToolError carries a fault whose `code` names what the toolset
 * itself refused, before or instead of the engine (the engine's own refusals are TeamLogErrors).
 */

export type ToolOwnFault =
  /** No tool of the Team toolset has this name. */
  | { readonly code: 'UnknownTool'; readonly toolName: string; readonly available: readonly string[] }
  /** The tool exists but not for this session's role (members do not spawn). */
  | { readonly code: 'ToolNotForRole'; readonly toolName: string; readonly role: 'lead' | 'member' }
  /** The arguments do not decode with the tool's codec; nothing reached the engine. */
  | { readonly code: 'InvalidToolArguments'; readonly toolName: string; readonly path: string; readonly detail: string }
  /** A member address (name, session id or "lead") that names nobody on the team. */
  | { readonly code: 'UnknownMember'; readonly address: string }
  /** A task that cannot be claimed as it is (finished, someone else's, or blocked). */
  | { readonly code: 'TaskNotClaimable'; readonly taskId: TaskId; readonly reason: string }
  /** An update_task call that names no change; it would only bump the revision. */
  | { readonly code: 'NothingToUpdate'; readonly taskId: TaskId }
  /** The session's own stream does not say it belongs to a team (no `teamlog/session/created` with a team). */
  | { readonly code: 'NotATeamSession'; readonly sessionId: SessionId }
  /** read_inbox was asked for messages after an id its inbox never accepted. */
  | { readonly code: 'UnknownInboxMessage'; readonly messageId: MessageId }
  /** A tool that writes, called by a session that is closed (killed, cancelled, lost or failed): nothing is written. */
  | { readonly code: 'SessionClosedForWrites'; readonly toolName: string; readonly reason: CloseReason }
  /** A resource that does not exist or could not be read (its read was refused). */
  | { readonly code: 'ResourceUnavailable'; readonly uri: string; readonly detail: string }
  /** The codec is of a kind the JSON Schema converter does not translate; the schema would not match it. */
  | { readonly code: 'UnsupportedCodec'; readonly codecName: string; readonly detail: string };

/** A claim of a task the team does not hold is refused as the engine would refuse it. */
export type ToolFault = ToolOwnFault | Extract<TeamRejection, { readonly code: 'TaskNotFound' }>;
export type ToolErrorCode = ToolFault['code'];

const toolMessages: MessageTable<ToolFault> = {
  UnknownTool: ({ toolName }) => `no Team tool "${toolName}"`,
  ToolNotForRole: ({ toolName, role }) => `${toolName} is not a ${role}'s tool`,
  InvalidToolArguments: ({ toolName, path, detail }) => `${toolName} arguments ${path}: ${detail}`,
  UnknownMember: ({ address }) => `no team member "${address}"`,
  TaskNotClaimable: ({ taskId, reason }) => `task "${taskId}" cannot be claimed: ${reason}`,
  NothingToUpdate: ({ taskId }) => `update of task "${taskId}" names no change`,
  NotATeamSession: ({ sessionId }) => `session "${sessionId}" is not the Lead or a member of a teamlog team`,
  UnknownInboxMessage: ({ messageId }) => `no message "${messageId}" in this inbox`,
  SessionClosedForWrites: ({ toolName, reason }) => `${toolName}: the session is closed (${reason})`,
  ResourceUnavailable: ({ uri, detail }) => `resource ${uri}: ${detail}`,
  UnsupportedCodec: ({ codecName, detail }) => `no JSON Schema for codec ${codecName}: ${detail}`,
  TaskNotFound: ({ taskId }) => `no task "${taskId}"`,
};

/** The one-line message of a fault (what `ToolError.message` says). */
export const describeToolFault = describeFault(toolMessages);

export class ToolError<F extends ToolFault = ToolFault> extends CodedError<F> {
  override readonly name = 'ToolError';
  constructor(fault: F) {
    super(fault, describeToolFault(fault));
  }
}

/** Narrow an unknown error to a ToolError, of the given codes when any are named. */
export const isToolError = codedErrorGuard<ToolFault, ToolError>(ToolError);
