import * as t from 'io-ts';
import { isUuid, uuidV5 } from './uuid-text';
import { uuidV7Source } from './uuid-v7';

/* Historical ids are kept exactly as written (they are not always uuids); new ids are uuid v7. */

export interface SessionIdBrand {
  readonly SessionId: unique symbol;
}
export const SessionId = t.brand(t.string, (s): s is t.Branded<string, SessionIdBrand> => s.length > 0, 'SessionId');
export type SessionId = t.TypeOf<typeof SessionId>;

/** A team is identified by its Lead's session id. */
export interface TeamIdBrand {
  readonly TeamId: unique symbol;
}
export const TeamId = t.brand(t.string, (s): s is t.Branded<string, TeamIdBrand> => s.length > 0, 'TeamId');
export type TeamId = t.TypeOf<typeof TeamId>;

export interface MessageIdBrand {
  readonly MessageId: unique symbol;
}
export const MessageId = t.brand(t.string, (s): s is t.Branded<string, MessageIdBrand> => s.length > 0, 'MessageId');
export type MessageId = t.TypeOf<typeof MessageId>;

export interface TaskIdBrand {
  readonly TaskId: unique symbol;
}
export const TaskId = t.brand(t.string, (s): s is t.Branded<string, TaskIdBrand> => s.length > 0, 'TaskId');
export type TaskId = t.TypeOf<typeof TaskId>;

/** Store event ids are uuids chosen by the writer (retries reuse them). */
export interface EventIdBrand {
  readonly EventId: unique symbol;
}
export const EventId = t.brand(t.string, (s): s is t.Branded<string, EventIdBrand> => isUuid(s), 'EventId');
export type EventId = t.TypeOf<typeof EventId>;

export const teamIdOf = (lead: SessionId): TeamId => lead as string as TeamId;
export const leadOf = (team: TeamId): SessionId => team as string as SessionId;

/** Where new ids come from; injected at the composition root so tests can be deterministic. */
export interface IdSource {
  readonly sessionId: () => SessionId;
  readonly messageId: () => MessageId;
  readonly eventId: () => EventId;
}

const uuidv7 = uuidV7Source();

export const uuidV7Ids: IdSource = {
  sessionId: () => uuidv7() as SessionId,
  messageId: () => uuidv7() as MessageId,
  eventId: () => uuidv7() as EventId,
};

const sequentialEventIdNamespace = '6f0e3c1a-6a43-4d8e-9b7c-2f1d5e8a9c40';

/** Deterministic ids for tests and scripted demos: same prefix, same ids; other prefixes never collide. */
export const sequentialIds = (prefix = 'id'): IdSource => {
  let next = 0;
  const hex = () => (next += 1).toString(16).padStart(12, '0');
  return {
    sessionId: () => `${prefix}-session-${hex()}` as SessionId,
    messageId: () => `${prefix}-message-${hex()}` as MessageId,
    eventId: () => uuidV5(`${prefix}-event-${hex()}`, sequentialEventIdNamespace) as EventId,
  };
};
