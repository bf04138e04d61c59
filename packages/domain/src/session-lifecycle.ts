import { CloseReason, SessionRole, TeamId } from '@teamlog/events';

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
  readonly lastSeq: number;
}

export const initialSessionLifecycle: SessionLifecycle = { status: 'not-started', native: false, turn: 0, lastSeq: -1 };

export interface LifecycleEvent {
  readonly type: string;
  readonly seq: number;
  readonly data: unknown;
}

const field = (data: unknown, key: string): unknown =>
  typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;

const numberField = (data: unknown, key: string, fallback: number): number => {
  const value = field(data, key);
  return typeof value === 'number' ? value : fallback;
};

/** Lenient by design: a projection over historical logs must never stop on an odd sequence. */
export const evolveLifecycle = (state: SessionLifecycle, event: LifecycleEvent): SessionLifecycle => {
  const at = { ...state, lastSeq: event.seq };
  if (state.status === 'closed') return at;
  const begun: SessionLifecycle = !state.native && state.status === 'not-started' && event.type !== 'teamlog/session/created' ? { ...at, status: 'idle' } : at;
  switch (event.type) {
    case 'teamlog/session/created':
      return {
        ...at,
        native: true,
        status: 'not-started',
        role: field(event.data, 'role') as SessionRole,
        teamId: field(event.data, 'teamId') as TeamId,
        name: field(event.data, 'name') as string,
      };
    case 'teamlog/session/started':
    case 'teamlog/session/resident':
      return { ...begun, status: 'idle' };
    case 'teamlog/session/evicted':
      return { ...begun, status: 'inactive' };
    case 'teamlog/session/resumed':
      return { ...begun, status: 'idle' };
    case 'teamlog/session/closed':
      return { ...begun, status: 'closed', closeReason: field(event.data, 'reason') as CloseReason };
    case 'turn/start': {
      const { step: _step, ...rest } = begun;
      return { ...rest, status: 'running', turn: numberField(event.data, 'turn', state.turn + 1) };
    }
    case 'turn/end': {
      const { step: _step, ...rest } = begun;
      return { ...rest, status: begun.status === 'running' ? 'idle' : begun.status };
    }
    case 'step/start':
      return { ...begun, step: numberField(event.data, 'step', (state.step ?? 0) + 1) };
    default:
      return begun;
  }
};

export const isTerminal = (lifecycle: SessionLifecycle): boolean => lifecycle.status === 'closed';
