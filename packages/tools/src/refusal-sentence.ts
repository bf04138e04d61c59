import {
  ConcurrencyExhausted,
  InvalidMemberName,
  InvalidSendRequest,
  MemberNotFound,
  MemberSpawnFailed,
  MessageToSelf,
  SendAborted,
  SendRejected,
  SenderClosed,
  SenderOutsideTeam,
  TargetClosed,
  TargetOutsideTeam,
  TaskNotFound,
  TaskRevisionConflict,
  TeamCommandRejected,
  TeamLogDisposed,
  TeamLogFailed,
  TeamRuleViolation,
  UnknownTarget,
  UnknownTaskOwner,
} from '@teamlog/team';
import {
  InvalidToolArguments,
  NothingToUpdate,
  SessionClosedForWrites,
  TaskNotClaimable,
  ToolNotForRole,
  UnknownInboxMessage,
  UnknownMember,
  UnknownTool,
} from './tool-errors';

const sentence = (text: string): string => {
  const trimmed = text.trim().replace(/\s*\n\s*/g, ' ');
  const capital = `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

type Phrase = (error: Error) => string | undefined;

const when =
  <E extends Error>(type: abstract new (...args: never[]) => E, phrase: (error: E) => string): Phrase =>
  (error) =>
    error instanceof type ? phrase(error) : undefined;

/** Most specific first: the generic domain refusals come last. */
const phrases: readonly Phrase[] = [
  when(UnknownTarget, (e) => `There is no team member or session "${e.target}"; list_members shows who is on the team`),
  when(
    TargetOutsideTeam,
    (e) => `Session "${e.target}" is not on your team; you can message only your team's Lead and members`,
  ),
  when(
    SenderOutsideTeam,
    () => 'You are no longer the Lead or an active member of this team, so you cannot send messages',
  ),
  when(
    SessionClosedForWrites,
    (e) =>
      `Your session is closed (${e.reason}), so ${e.toolName} changes nothing; the tools that only read still work`,
  ),
  when(SenderClosed, (e) => `Your session is closed (${e.reason}), so it sends no more messages`),
  when(MessageToSelf, () => 'You cannot send a message to yourself; choose a teammate as the target'),
  when(
    TargetClosed,
    (e) => `The target (session ${e.target}) is closed (${e.reason}) and accepts no messages; nothing was sent`,
  ),
  when(InvalidSendRequest, (e) => `The message was refused: ${e.path} ${e.detail}; nothing was sent`),
  when(SendAborted, () => 'The send was cancelled before the target accepted it; nothing was sent'),
  when(
    ConcurrencyExhausted,
    () => "The target's inbox was too busy to accept the message; nothing was sent, so try again",
  ),
  when(TeamLogDisposed, () => 'The team log is shutting down; nothing was done'),
  when(
    TaskRevisionConflict,
    (e) =>
      `Task "${e.taskId}" is at revision ${e.actual}, not ${e.expected}: it changed since you read it, nothing was written, so list the tasks and try again`,
  ),
  when(TaskNotFound, (e) => `There is no task "${e.taskId}"; list_tasks shows the tasks`),
  when(UnknownTaskOwner, (e) => `The owner "${e.ownerId}" is not the Lead or a member of your team`),
  when(InvalidMemberName, (e) => `${e.message}; choose another name`),
  when(MemberNotFound, (e) => `There is no team member "${e.member}"`),
  when(
    MemberSpawnFailed,
    (e) => `The member "${e.memberName}" could not be started, so the roster records it as failed`,
  ),
  when(
    TeamLogFailed,
    (e) => `The team's log has a failing record (seq ${e.failure.seq}), so no more team changes are accepted`,
  ),
  when(TeamRuleViolation, (e) => `The team refused the change: ${e.reason}`),
  when(UnknownTool, (e) => `There is no tool "${e.toolName}"; your tools are ${e.available.join(', ')}`),
  when(
    ToolNotForRole,
    (e) =>
      `As a ${e.role} you do not have the tool ${e.toolName}; it is ${e.role === 'member' ? 'the Lead' : 'a member'}'s`,
  ),
  when(
    InvalidToolArguments,
    (e) => `The arguments of ${e.toolName} were refused: ${e.path}: ${e.detail}; nothing was done`,
  ),
  when(UnknownMember, (e) => `There is no team member "${e.address}"; use a member's name, a session id, or "lead"`),
  when(TaskNotClaimable, (e) => `You cannot claim task "${e.taskId}": ${e.reason}`),
  when(NothingToUpdate, (e) => `The update of task "${e.taskId}" changes nothing; name at least one field to change`),
  when(
    UnknownInboxMessage,
    (e) => `Your inbox holds no message "${e.messageId}"; read it without "after" to see every message`,
  ),
  when(SendRejected, (e) => e.message),
  when(TeamCommandRejected, (e) => e.message),
];

/**
 * The one sentence a model reads for a refusal (unknown target, closed target, task conflict, bad
 * arguments, ...), or undefined for an error that is not a refusal (a failing store, a bug): the
 * host hears of those, not the model.
 */
export const refusalSentence = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined;
  for (const phrase of phrases) {
    const text = phrase(error);
    if (text !== undefined) return sentence(text);
  }
  return undefined;
};
