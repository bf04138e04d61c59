import {
  type InboxList,
  type MessageId,
  type RelayedMessage,
  type SessionId,
  type TeamId,
  type WritableEvent,
  checkedStreamEvent,
} from '@teamlog/events';
import {
  type SessionStreamState,
  evolveSessionStream,
  initialSessionStreamState,
  relayedMessage,
} from '@teamlog/domain';

/* Builders for session streams in decider tests: events get dense seqs from 0, like a stream. */

export const team = 'lead-1' as TeamId;
export const lead = 'lead-1' as SessionId;
export const target = 'member-a' as SessionId;
export const sibling = 'member-b' as SessionId;

export const created = (
  teamId: TeamId = team,
  role: 'lead' | 'member' = 'member',
  name = 'implementer',
): WritableEvent => ({
  type: 'teamlog/session/created',
  data: { teamId, role, name },
});
export const started: WritableEvent = { type: 'teamlog/session/started', data: {} };
export const resident: WritableEvent = { type: 'teamlog/session/resident', data: {} };
export const evicted: WritableEvent = { type: 'teamlog/session/evicted', data: {} };
export const closed = (reason: 'killed' | 'cancelled' | 'lost' | 'failed'): WritableEvent => ({
  type: 'teamlog/session/closed',
  data: { reason },
});
export const turnStart = (turn: number): WritableEvent => ({ type: 'turn/start', data: { turn } }) as WritableEvent;
export const turnEnd = (turn: number): WritableEvent =>
  ({ type: 'turn/end', data: { turn, reason: { kind: 'completed' } } }) as WritableEvent;
export const stepStart = (turn: number, step: number): WritableEvent =>
  ({ type: 'step/start', data: { turn, step } }) as WritableEvent;
export const stepEnd = (turn: number, step: number): WritableEvent =>
  ({ type: 'step/end', data: { turn, step } }) as WritableEvent;

export const message = (id: string, from: SessionId = sibling, name = 'researcher', text = 'hello'): RelayedMessage =>
  relayedMessage(id as MessageId, { sessionId: from, name }, [{ type: 'text', text }]);

export const accepted = (list: InboxList, relayed: RelayedMessage): WritableEvent => ({
  type: 'teamlog/inbox/accepted',
  data: { teamId: team, list, message: relayed },
});

export const streamOf = (...events: readonly WritableEvent[]): SessionStreamState =>
  events.reduce(
    (state, event, seq) => evolveSessionStream(state, checkedStreamEvent(event, seq)),
    initialSessionStreamState(),
  );

/** Apply decided events to a state, as the store would after the append. */
export const afterAppend = (state: SessionStreamState, events: readonly WritableEvent[]): SessionStreamState =>
  events.reduce(
    (next, event, index) => evolveSessionStream(next, checkedStreamEvent(event, state.revision + 1 + index)),
    state,
  );
