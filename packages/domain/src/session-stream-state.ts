import type { StreamEvent } from '@teamlog/events';
import { type InboxState, evolveInbox, initialInboxState } from './inbox-state';
import { type SessionLifecycle, evolveLifecycle, initialSessionLifecycle } from './session-lifecycle';

/**
 * What a session's own stream says about admitting and claiming its input: the lifecycle and
 * inbox folds, whether a step is open, and the stream revision the next append must expect.
 * Linear like InboxState: evolving updates the inbox of the state it is given.
 */
export interface SessionStreamState {
  readonly lifecycle: SessionLifecycle;
  readonly inbox: InboxState;
  /** A `step/start` with no `step/end` (or turn boundary) after it. */
  readonly stepOpen: boolean;
  /** The stream's last revision (the session's last seq); -1 when the stream has no events. */
  readonly revision: number;
}

export const initialSessionStreamState = (): SessionStreamState => ({
  lifecycle: initialSessionLifecycle,
  inbox: initialInboxState(),
  stepOpen: false,
  revision: -1,
});

const stepOpenAfter = (stepOpen: boolean, type: string): boolean => {
  switch (type) {
    case 'step/start':
      return true;
    case 'step/end':
    case 'turn/start':
    case 'turn/end':
    case 'teamlog/session/closed':
      return false;
    default:
      return stepOpen;
  }
};

export const evolveSessionStream = (state: SessionStreamState, event: StreamEvent): SessionStreamState => ({
  lifecycle: evolveLifecycle(state.lifecycle, event),
  inbox: evolveInbox(state.inbox, event),
  stepOpen: state.lifecycle.status === 'closed' ? false : stepOpenAfter(state.stepOpen, event.type),
  revision: event.seq,
});
