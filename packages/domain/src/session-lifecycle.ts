import type { CloseReason, SessionRole, StreamEvent, TeamId } from '@teamlog/events';

/**
 * Where a session is in its life, from its own stream.
 * not-started: created by teamlog, not started yet; idle: resident between turns;
 * running: inside a turn; inactive: evicted from memory (a send cold-resumes it); closed: terminal.
 */
export type SessionStatus = 'not-started' | 'idle' | 'running' | 'inactive' | 'closed';

export interface SessionLifecycle {
  readonly status: SessionStatus;
  /** Whether teamlog created the session (historical sessions start with their first event). */
  readonly native: boolean;
  readonly closeReason?: CloseReason;
  readonly role?: SessionRole;
  readonly teamId?: TeamId;
  readonly name?: string;
  /** The current or last turn, and the current step inside it. */
  readonly turn: number;
  readonly step?: number;
}

export const initialSessionLifecycle: SessionLifecycle = { status: 'not-started', native: false, turn: 0 };

const withoutStep = ({ step: _step, ...rest }: SessionLifecycle): SessionLifecycle => rest;

/**
 * Lenient by design: a projection over historical logs must never stop on an odd sequence. A
 * boundary whose payload its codec refuses still moves the status (its numbers are inferred); a
 * refused `teamlog/session/created` does not make a session teamlog's. Most events of a log (the
 * conversation itself) move nothing: the same state comes back, and nothing is allocated.
 */
export const evolveLifecycle = (state: SessionLifecycle, event: StreamEvent): SessionLifecycle => {
  if (state.status === 'closed') return state;
  const begun: SessionLifecycle =
    !state.native && state.status === 'not-started' && event.type !== 'teamlog/session/created'
      ? { ...state, status: 'idle' }
      : state;
  switch (event.type) {
    case 'teamlog/session/created':
      if (!event.catalog) return begun;
      return {
        ...state,
        native: true,
        status: 'not-started',
        role: event.data.role,
        teamId: event.data.teamId,
        name: event.data.name,
      };
    case 'teamlog/session/started':
    case 'teamlog/session/resident':
    case 'teamlog/session/resumed':
      return { ...begun, status: 'idle' };
    case 'teamlog/session/evicted':
      return { ...begun, status: 'inactive' };
    case 'teamlog/session/closed':
      return { ...begun, status: 'closed', closeReason: event.catalog ? event.data.reason : 'lost' };
    case 'turn/start':
      return { ...withoutStep(begun), status: 'running', turn: event.catalog ? event.data.turn : state.turn + 1 };
    case 'turn/end':
      return { ...withoutStep(begun), status: begun.status === 'running' ? 'idle' : begun.status };
    case 'step/start':
      return { ...begun, step: event.catalog ? event.data.step : (state.step ?? 0) + 1 };
    default:
      return begun;
  }
};

/** The event types `evolveLifecycle` reads: an event of any other type moves only a lifecycle not yet begun. */
export const lifecycleEventTypes: ReadonlySet<string> = new Set([
  'teamlog/session/created',
  'teamlog/session/started',
  'teamlog/session/resident',
  'teamlog/session/resumed',
  'teamlog/session/evicted',
  'teamlog/session/closed',
  'turn/start',
  'turn/end',
  'step/start',
]);

/**
 * Whether a lifecycle has begun: teamlog's own session, or a historical one past its first event.
 * An event whose type is not in `lifecycleEventTypes` leaves a begun lifecycle as it is, so a fold
 * over a whole log (the views') need not call `evolveLifecycle` for most of a conversation.
 */
export const lifecycleHasBegun = (state: SessionLifecycle): boolean => state.native || state.status !== 'not-started';

type OwnedLifecycle = { -readonly [K in keyof SessionLifecycle]: SessionLifecycle[K] };

/** A lifecycle `evolveLifecycle` would change more than a turn's or step's fields of: the first event, a closed one. */
const foldsAsNew = (state: SessionLifecycle): boolean =>
  state === initialSessionLifecycle || state.status === 'closed' || (!state.native && state.status === 'not-started');

/**
 * The same fold for a lifecycle its caller alone holds (views read once, where nothing keeps a
 * lifecycle by its identity): a turn or step boundary, most of a log's lifecycle events, updates it
 * in place (a step ended is `undefined`, which no reader tells from absent); every other event, and
 * the shared initial state, fold as `evolveLifecycle` does.
 */
export const accumulateLifecycle = (state: SessionLifecycle, event: StreamEvent): SessionLifecycle => {
  if (foldsAsNew(state)) return evolveLifecycle(state, event);
  const owned = state as OwnedLifecycle;
  switch (event.type) {
    case 'turn/start':
      owned.status = 'running';
      owned.turn = event.catalog ? event.data.turn : state.turn + 1;
      owned.step = undefined;
      return owned;
    case 'turn/end':
      if (owned.status === 'running') owned.status = 'idle';
      owned.step = undefined;
      return owned;
    case 'step/start':
      owned.step = event.catalog ? event.data.step : (state.step ?? 0) + 1;
      return owned;
    default:
      return evolveLifecycle(state, event);
  }
};

export const isTerminal = (lifecycle: SessionLifecycle): boolean => lifecycle.status === 'closed';
