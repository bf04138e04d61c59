import type { SendRejection, SessionLoopRejection, TeamRejection } from '@teamlog/domain';
import { describeSendRejection, describeSessionLoopRejection, describeTeamRejection } from '@teamlog/domain';
import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';
import type { DecodeError, SessionId, TeamId } from '@teamlog/events';
import type { StreamName } from '@teamlog/store';

/*
 * The one error of the TeamLog surface: a TeamLogError carries a fault, a tagged union whose `code`
 * names what was refused or what broke. The domain's rejections (send, team, session loop) are
 * faults as they are; the rest are the TeamLog's own.
 */

export type TeamLogOwnFault =
  /** The caller's AbortSignal fired before the acceptance was appended: nothing was written. */
  | { readonly code: 'SendAborted'; readonly cause?: unknown }
  /** The TeamLog was disposed; in-flight operations finished, new ones are refused. */
  | { readonly code: 'TeamLogDisposed'; readonly operation: string }
  /** A send request that is not `{ target, message, signal? }` with a non-empty message. */
  | { readonly code: 'InvalidSendRequest'; readonly path: string; readonly detail: string }
  /** The mailbox era's records are decoded and projected, never written. */
  | { readonly code: 'LegacyMailboxWriteRefused'; readonly eventType: string }
  /** An event teamlog was about to write does not match its catalog codec (or is not in the catalog). */
  | { readonly code: 'InvalidEventRefused'; readonly eventType: string; readonly problem: DecodeError | string }
  /** An event already in a stream does not decode: the stream is damaged, name where. */
  | {
      readonly code: 'CorruptStreamEvent';
      readonly streamName: StreamName;
      readonly revision: bigint;
      readonly problem: DecodeError;
    }
  /** Optimistic concurrency lost too many times in a row to other writers of one stream. */
  | { readonly code: 'ConcurrencyExhausted'; readonly streamName: StreamName; readonly attempts: number }
  /** A member's own stream could not be created; the roster records the member as failed. */
  | {
      readonly code: 'MemberSpawnFailed';
      readonly memberName: string;
      readonly sessionId: SessionId;
      readonly cause: unknown;
    }
  /** No team with this id: its Lead stream does not start with a Lead's `teamlog/session/created`. */
  | { readonly code: 'TeamNotFound'; readonly teamId: TeamId }
  /** A steer path was asked for an edge it does not authorise (wrong team, wrong direction). */
  | { readonly code: 'UnauthorisedEdge'; readonly detail: string };

export type TeamLogFault = SendRejection | TeamRejection | SessionLoopRejection | TeamLogOwnFault;
export type TeamLogErrorCode = TeamLogFault['code'];

const causeText = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));

const describeOwnFault = (fault: TeamLogOwnFault): string => {
  switch (fault.code) {
    case 'SendAborted':
      return 'the send was aborted before it was accepted; nothing was written';
    case 'TeamLogDisposed':
      return `the TeamLog is disposed; ${fault.operation} was refused`;
    case 'InvalidSendRequest':
      return `send request ${fault.path}: ${fault.detail}`;
    case 'LegacyMailboxWriteRefused':
      return `teamlog never writes ${fault.eventType}: the Team mailbox is superseded by the target inbox`;
    case 'InvalidEventRefused':
      return `refused to write ${fault.eventType}: ${typeof fault.problem === 'string' ? fault.problem : fault.problem.message}`;
    case 'CorruptStreamEvent':
      return `stream ${fault.streamName} revision ${fault.revision}: ${fault.problem.message}`;
    case 'ConcurrencyExhausted':
      return `stream ${fault.streamName}: gave up after ${fault.attempts} conflicting appends`;
    case 'MemberSpawnFailed':
      return `member "${fault.memberName}" (${fault.sessionId}) failed to spawn: ${causeText(fault.cause)}`;
    case 'TeamNotFound':
      return `no teamlog team "${fault.teamId}"`;
    case 'UnauthorisedEdge':
      return fault.detail;
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
};

/** Who words each code: the aggregate that decided it, or the TeamLog. Exhaustive: a new code does not compile until listed. */
const describers: MessageTable<TeamLogFault> = {
  UnknownTarget: describeSendRejection,
  TargetOutsideTeam: describeSendRejection,
  SenderOutsideTeam: describeSendRejection,
  MessageToSelf: describeSendRejection,
  SenderClosed: describeSendRejection,
  TargetClosed: describeSendRejection,
  TeamRuleViolation: describeTeamRejection,
  TaskRevisionConflict: describeTeamRejection,
  TaskNotFound: describeTeamRejection,
  MemberNotFound: describeTeamRejection,
  InvalidMemberName: describeTeamRejection,
  UnknownTaskOwner: describeTeamRejection,
  TeamLogFailed: describeTeamRejection,
  SessionNotFound: describeSessionLoopRejection,
  InvalidSessionTransition: describeSessionLoopRejection,
  SteerInputPending: describeSessionLoopRejection,
  SendAborted: describeOwnFault,
  TeamLogDisposed: describeOwnFault,
  InvalidSendRequest: describeOwnFault,
  LegacyMailboxWriteRefused: describeOwnFault,
  InvalidEventRefused: describeOwnFault,
  CorruptStreamEvent: describeOwnFault,
  ConcurrencyExhausted: describeOwnFault,
  MemberSpawnFailed: describeOwnFault,
  TeamNotFound: describeOwnFault,
  UnauthorisedEdge: describeOwnFault,
};

/** The one-line message of a fault (what `TeamLogError.message` says). */
export const describeTeamLogFault = describeFault(describers);

/** Every error the TeamLog raises on purpose; `code` says which, `fault` holds the fields of that code. */
export class TeamLogError<F extends TeamLogFault = TeamLogFault> extends CodedError<F> {
  override readonly name = 'TeamLogError';
  constructor(fault: F) {
    super(fault, describeTeamLogFault(fault));
  }
}

/** Narrow an unknown error to a TeamLogError, of the given codes when any are named. */
export const isTeamLogError = codedErrorGuard<TeamLogFault, TeamLogError>(TeamLogError);

/** A send request refused at `path` (the request's field path) for `detail`. */
export const invalidSendRequest = (path: string, detail: string): TeamLogError =>
  new TeamLogError({ code: 'InvalidSendRequest', path, detail });

/** The caller's signal fired before the acceptance was appended. */
export const sendAborted = (cause?: unknown): TeamLogError => new TeamLogError({ code: 'SendAborted', cause });
