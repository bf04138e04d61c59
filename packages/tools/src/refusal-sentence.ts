import { TeamLogError, type TeamLogFault } from '@teamlog/team';
import { ToolError, type ToolFault } from './tool-errors';

type Refusal = TeamLogFault | ToolFault;
type RefusalCode = Refusal['code'];

const sentence = (text: string): string => {
  const trimmed = text.trim().replace(/\s*\n\s*/g, ' ');
  const capital = `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/**
 * The one table of what a model reads for each code: a phrase for a refusal the model can act on,
 * `undefined` for a fault that is not one (a damaged stream, a host misusing the loop, a bug): the
 * host hears of those, not the model. Exhaustive: a new code does not compile until it is listed.
 */
const phrases: {
  readonly [C in RefusalCode]: ((fault: Extract<Refusal, { readonly code: C }>) => string) | undefined;
} = {
  UnknownTarget: (f) => `There is no team member or session "${f.target}"; list_members shows who is on the team`,
  TargetOutsideTeam: (f) =>
    `Session "${f.target}" is not on your team; you can message only your team's Lead and members`,
  SenderOutsideTeam: () => 'You are no longer the Lead or an active member of this team, so you cannot send messages',
  SessionClosedForWrites: (f) =>
    `Your session is closed (${f.reason}), so ${f.toolName} changes nothing; the tools that only read still work`,
  SenderClosed: (f) => `Your session is closed (${f.reason}), so it sends no more messages`,
  MessageToSelf: () => 'You cannot send a message to yourself; choose a teammate as the target',
  TargetClosed: (f) =>
    `The target (session ${f.target}) is closed (${f.reason}) and accepts no messages; nothing was sent`,
  InvalidSendRequest: (f) => `The message was refused: ${f.path} ${f.detail}; nothing was sent`,
  SendAborted: () => 'The send was cancelled before the target accepted it; nothing was sent',
  ConcurrencyExhausted: () => "The target's inbox was too busy to accept the message; nothing was sent, so try again",
  TeamLogDisposed: () => 'The team log is shutting down; nothing was done',
  TaskRevisionConflict: (f) =>
    `Task "${f.taskId}" is at revision ${f.actual}, not ${f.expected}: it changed since you read it, nothing was written, so list the tasks and try again`,
  TaskNotFound: (f) => `There is no task "${f.taskId}"; list_tasks shows the tasks`,
  UnknownTaskOwner: (f) => `The owner "${f.ownerId}" is not the Lead or a member of your team`,
  InvalidMemberName: (f) => `member name ${JSON.stringify(f.memberName)} ${f.detail}; choose another name`,
  MemberNotFound: (f) => `There is no team member "${f.member}"`,
  MemberSpawnFailed: (f) => `The member "${f.memberName}" could not be started, so the roster records it as failed`,
  TeamLogFailed: (f) =>
    `The team's log has a failing record (seq ${f.failure.seq}), so no more team changes are accepted`,
  TeamRuleViolation: (f) => `The team refused the change: ${f.reason}`,
  UnknownTool: (f) => `There is no tool "${f.toolName}"; your tools are ${f.available.join(', ')}`,
  ToolNotForRole: (f) =>
    `As a ${f.role} you do not have the tool ${f.toolName}; it is ${f.role === 'member' ? 'the Lead' : 'a member'}'s`,
  InvalidToolArguments: (f) => `The arguments of ${f.toolName} were refused: ${f.path}: ${f.detail}; nothing was done`,
  UnknownMember: (f) => `There is no team member "${f.address}"; use a member's name, a session id, or "lead"`,
  TaskNotClaimable: (f) => `You cannot claim task "${f.taskId}": ${f.reason}`,
  NothingToUpdate: (f) => `The update of task "${f.taskId}" changes nothing; name at least one field to change`,
  UnknownInboxMessage: (f) =>
    `Your inbox holds no message "${f.messageId}"; read it without "after" to see every message`,
  SessionNotFound: undefined,
  InvalidSessionTransition: undefined,
  SteerInputPending: undefined,
  LegacyMailboxWriteRefused: undefined,
  InvalidEventRefused: undefined,
  CorruptStreamEvent: undefined,
  TeamNotFound: undefined,
  UnauthorisedEdge: undefined,
  NotATeamSession: undefined,
  ResourceUnavailable: undefined,
  UnsupportedCodec: undefined,
};

const phraseOf = (fault: Refusal): string | undefined => {
  const phrase = phrases[fault.code] as ((fault: Refusal) => string) | undefined;
  return phrase?.(fault);
};

/** A refusal's code and the one sentence a model reads for it. */
export interface RefusalSentence {
  readonly code: RefusalCode;
  readonly sentence: string;
}

/**
 * The one sentence a model reads for a refusal (unknown target, closed target, task conflict, bad
 * arguments, ...), or undefined for an error that is not a refusal (a failing store, a bug): the
 * host hears of those, not the model.
 */
export const refusalSentence = (error: unknown): RefusalSentence | undefined => {
  if (!(error instanceof TeamLogError || error instanceof ToolError)) return undefined;
  const fault: Refusal = error.fault;
  const text = phraseOf(fault);
  return text === undefined ? undefined : { code: fault.code, sentence: sentence(text) };
};
