import { type Either, left, right } from 'fp-ts/Either';
import type {
  CloseReason,
  EventOf,
  MessageId,
  NonNegativeInteger,
  SessionId,
  StreamEvent,
  WritableEvent,
} from '@teamlog/events';
import type { Decider } from './decider';
import {
  type SendRejection,
  type SessionStreamState,
  cancelPending,
  claimPending,
  evolveSessionStream,
  initialSessionStreamState,
  pendingIn,
} from './inbox';
import type { SessionStatus } from './session-lifecycle';

/*
 * The session aggregate: a session's loop as its host reports it (start, turns, steps, residency,
 * close), decided against the session's own stream (inbox.ts folds it), and the sender lifecycle a
 * send asks of its sender's stream. Read top to bottom: rejections, commands, decide, the deciders.
 */

// ---------------------------------------------------------------------------------------------
// Rejections

/** Why a host report about a session's loop was refused, as data. Nothing is written. */
export type SessionLoopRejection =
  | { readonly code: 'SessionNotFound'; readonly sessionId: SessionId }
  /** The report does not fit where the session is (e.g. a step outside a turn, a turn of a closed session). */
  | {
      readonly code: 'InvalidSessionTransition';
      readonly sessionId: SessionId;
      readonly command: string;
      readonly status: SessionStatus;
      readonly stepOpen: boolean;
    }
  /**
   * A completed turn would strand steered messages: the end of a turn is a step boundary, so the
   * host runs one more step, which claims them.
   */
  | { readonly code: 'SteerInputPending'; readonly sessionId: SessionId; readonly messageIds: readonly MessageId[] };

export type SessionLoopRejectionCode = SessionLoopRejection['code'];

export const describeSessionLoopRejection = (rejection: SessionLoopRejection): string => {
  switch (rejection.code) {
    case 'SessionNotFound':
      return `no teamlog session "${rejection.sessionId}"`;
    case 'InvalidSessionTransition':
      return `session "${rejection.sessionId}" cannot ${rejection.command} while ${rejection.status}${rejection.stepOpen ? ' inside a step' : ''}`;
    case 'SteerInputPending':
      return `session "${rejection.sessionId}" has ${rejection.messageIds.length} steered message(s) to claim before its turn can complete`;
    default: {
      const unreachable: never = rejection;
      return unreachable;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Commands

/** Abort reasons of `turn/end` (docs/rules.md#turn-end-reasons) (`{kind:"aborted", reason:{kind}}`). */
export type TurnAbortKind = 'user' | 'parent' | 'hook' | 'disposed';

/** What the host reports about a session's loop. Claims happen at turn start and step start. */
export type SessionReport =
  | { readonly type: 'start' }
  | { readonly type: 'begin-turn' }
  | { readonly type: 'begin-step' }
  | { readonly type: 'end-step' }
  | { readonly type: 'end-turn' }
  | { readonly type: 'abort-turn'; readonly reason: TurnAbortKind }
  /** Recovery: a turn cut off by a crash ends as interrupted; its pending input stays pending. */
  | { readonly type: 'interrupt-turn' }
  | { readonly type: 'become-resident' }
  | { readonly type: 'evict' }
  | { readonly type: 'resume' }
  | { readonly type: 'close'; readonly reason: CloseReason; readonly detail?: string };

export interface SessionLoopCommand {
  readonly sessionId: SessionId;
  readonly report: SessionReport;
}

// ---------------------------------------------------------------------------------------------
// Decide

const count = (n: number): NonNegativeInteger => n as NonNegativeInteger;

type Check = (state: SessionStreamState) => boolean;
const when =
  (status: SessionStatus, stepOpen?: boolean): Check =>
  (state) =>
    state.lifecycle.status === status && (stepOpen === undefined || state.stepOpen === stepOpen);

const turnEnd = (state: SessionStreamState, reason: EventOf<'turn/end'>['data']['reason']): WritableEvent[] => [
  ...(state.stepOpen
    ? [
        {
          type: 'step/end' as const,
          data: { turn: count(state.lifecycle.turn), step: count(state.lifecycle.step ?? 0) },
        },
      ]
    : []),
  { type: 'turn/end', data: { turn: count(state.lifecycle.turn), reason } },
];

const eventsFor = (
  sessionId: SessionId,
  command: SessionReport,
  state: SessionStreamState,
): Either<SessionLoopRejection, WritableEvent[]> => {
  const { lifecycle, inbox } = state;
  const refusal: SessionLoopRejection = {
    code: 'InvalidSessionTransition',
    sessionId,
    command: command.type,
    status: lifecycle.status,
    stepOpen: state.stepOpen,
  };
  const checked = (allowed: Check, events: () => WritableEvent[]): Either<SessionLoopRejection, WritableEvent[]> =>
    allowed(state) ? right(events()) : left(refusal);
  switch (command.type) {
    case 'start':
      return checked(when('not-started'), () => [{ type: 'teamlog/session/started', data: {} }]);
    case 'begin-turn': {
      const turn = lifecycle.turn + 1;
      // Everything pending enters the new turn: follow-ups, and steers a crashed turn never claimed.
      return checked(when('idle'), () => [
        { type: 'turn/start', data: { turn: count(turn) } },
        ...claimPending(inbox, ['next-turn', 'next-step'], turn),
      ]);
    }
    case 'begin-step': {
      const step = (lifecycle.step ?? 0) + 1;
      return checked(when('running', false), () => [
        { type: 'step/start', data: { turn: count(lifecycle.turn), step: count(step) } },
        ...claimPending(inbox, ['next-step'], lifecycle.turn, step),
      ]);
    }
    case 'end-step':
      return checked(when('running', true), () => [
        { type: 'step/end', data: { turn: count(lifecycle.turn), step: count(lifecycle.step ?? 0) } },
      ]);
    case 'end-turn': {
      if (!when('running', false)(state)) return left(refusal);
      const steered = pendingIn(inbox, ['next-step']);
      if (steered.length > 0)
        return left({ code: 'SteerInputPending', sessionId, messageIds: steered.map((entry) => entry.id) });
      return right(turnEnd(state, { kind: 'completed' }));
    }
    case 'abort-turn':
      return checked(when('running'), () => [
        ...turnEnd(state, { kind: 'aborted', reason: { kind: command.reason } }),
        ...cancelPending(inbox, ['next-step'], `turn ${lifecycle.turn} aborted (${command.reason})`),
      ]);
    case 'interrupt-turn':
      return checked(when('running'), () => turnEnd(state, { kind: 'interrupted' }));
    case 'become-resident':
      return checked(when('idle'), () => [{ type: 'teamlog/session/resident', data: {} }]);
    case 'evict':
      return checked(when('idle'), () => [{ type: 'teamlog/session/evicted', data: {} }]);
    case 'resume':
      return checked(when('inactive'), () => [{ type: 'teamlog/session/resumed', data: { mode: 'cold' } }]);
    case 'close':
      return checked(
        (s) => s.lifecycle.status !== 'closed',
        () => [
          ...cancelPending(inbox, ['next-turn', 'next-step'], `session ${command.reason}`),
          {
            type: 'teamlog/session/closed',
            data: { reason: command.reason, ...(command.detail === undefined ? {} : { detail: command.detail }) },
          },
        ],
      );
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

/** Decide a host report against the session's own stream. */
export const decideSessionLoop = (
  command: SessionLoopCommand,
  state: SessionStreamState,
): Either<SessionLoopRejection, WritableEvent[]> =>
  state.lifecycle.native
    ? eventsFor(command.sessionId, command.report, state)
    : left({ code: 'SessionNotFound', sessionId: command.sessionId });

/** The session loop aggregate: the same stream state as the target inbox. */
export const sessionLoop: Decider<SessionLoopCommand, WritableEvent, SessionStreamState, SessionLoopRejection> = {
  decide: decideSessionLoop,
  evolve: evolveSessionStream,
  initialState: initialSessionStreamState,
};

// ---------------------------------------------------------------------------------------------
// The sender lifecycle: may this session send?

/**
 * What a send needs of its sender's own stream: whether the session has closed, and why. Only
 * `teamlog/session/closed` moves it (closing is terminal), so a fold of it reads nothing else.
 */
export interface SenderClosure {
  readonly closed?: CloseReason;
}

export const initialSenderClosure: SenderClosure = {};

export const senderClosureEventType = 'teamlog/session/closed';

export const evolveSenderClosure = (state: SenderClosure, event: StreamEvent): SenderClosure => {
  if (state.closed !== undefined || event.type !== senderClosureEventType) return state;
  return { closed: event.catalog && event.type === senderClosureEventType ? event.data.reason : 'lost' };
};

/** May this session send? Asked by the send pipeline; the answer writes nothing. */
export interface OpenToSend {
  readonly type: 'open-to-send';
  readonly sessionId: SessionId;
}

export type SenderClosed = Extract<SendRejection, { readonly code: 'SenderClosed' }>;

/**
 * A session sends while it is not closed. A closed session (killed, cancelled, lost, failed) can
 * still hold a handle in its host; what that handle sends is refused, so no message is attributed
 * to a session after its end.
 */
export const senderLifecycle: Decider<OpenToSend, never, SenderClosure, SenderClosed> = {
  decide: (command, { closed }) =>
    closed === undefined ? right([]) : left({ code: 'SenderClosed', sender: command.sessionId, reason: closed }),
  evolve: evolveSenderClosure,
  initialState: () => initialSenderClosure,
  reads: (type) => type === senderClosureEventType,
};
