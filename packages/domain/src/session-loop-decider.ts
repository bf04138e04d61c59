import { type Either, left, right } from 'fp-ts/Either';
import type { CloseReason, EventOf, NonNegativeInteger, SessionId, WritableEvent } from '@teamlog/events';
import type { Decider } from './decider';
import { cancelPending, claimPending, pendingIn } from './inbox-claims';
import type { SessionStatus } from './session-lifecycle';
import {
  InvalidSessionTransition,
  type SessionLoopRejected,
  SessionNotFound,
  SteerInputPending,
} from './session-loop-rejection';
import { type SessionStreamState, evolveSessionStream, initialSessionStreamState } from './session-stream-state';

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

const count = (n: number): NonNegativeInteger => n as NonNegativeInteger;

type Check = (state: SessionStreamState) => boolean;
const when =
  (status: SessionStatus, stepOpen?: boolean): Check =>
  (state) =>
    state.lifecycle.status === status && (stepOpen === undefined || state.stepOpen === stepOpen);

const guard = (
  sessionId: SessionId,
  command: SessionReport,
  state: SessionStreamState,
  allowed: Check,
): SessionLoopRejected | undefined =>
  allowed(state)
    ? undefined
    : new InvalidSessionTransition(sessionId, command.type, state.lifecycle.status, state.stepOpen);

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
): Either<SessionLoopRejected, WritableEvent[]> => {
  const { lifecycle, inbox } = state;
  const refuse = (allowed: Check) => guard(sessionId, command, state, allowed);
  const checked = (allowed: Check, events: () => WritableEvent[]): Either<SessionLoopRejected, WritableEvent[]> => {
    const refusal = refuse(allowed);
    return refusal === undefined ? right(events()) : left(refusal);
  };
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
      const refusal = refuse(when('running', false));
      if (refusal !== undefined) return left(refusal);
      const steered = pendingIn(inbox, ['next-step']);
      if (steered.length > 0)
        return left(
          new SteerInputPending(
            sessionId,
            steered.map((entry) => entry.id),
          ),
        );
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
): Either<SessionLoopRejected, WritableEvent[]> =>
  state.lifecycle.native
    ? eventsFor(command.sessionId, command.report, state)
    : left(new SessionNotFound(command.sessionId));

/** The session loop aggregate: the same stream state as the target inbox. */
export const sessionLoop: Decider<SessionLoopCommand, WritableEvent, SessionStreamState, SessionLoopRejected> = {
  decide: decideSessionLoop,
  evolve: evolveSessionStream,
  initialState: initialSessionStreamState,
};
