import * as t from 'io-ts';
import { type Either, isLeft, left, right } from 'fp-ts/Either';
import { type DecodeError, decodeWith } from './decode-error';
import { JsonObject } from './json-value';
import { InboxSpliced } from './inbox-spliced';
import { knownSessionEventTypes } from './known-event-types';
import {
  ImportRevoked,
  ImportSetAside,
  ImportSuperseded,
  InboxAccepted,
  InboxCanceled,
  InboxClaimed,
  SessionClosed,
  SessionCreated,
  SessionEvicted,
  SessionResident,
  SessionResumed,
  SessionStarted,
} from './teamlog-events';
import {
  TeamMemberV1,
  TeamMemberV2,
  TeamMessageDeliveredV1,
  TeamMessageDeliveredV2,
  TeamMessageQueuedV1,
  TeamMessageQueuedV2,
  TeamTaskV1,
  TeamTaskV2,
  decodeTeamRecord,
  isTeamRecordType,
} from './team-records';
import { StepBoundary, TurnEnd, TurnStart } from './turn-events';
import { UserMessage } from './user-message';
import type { FormatVersion } from './session-header';

/** The header of a session, kept in its own stream so the session stream's revision stays its seq. */
export const SessionHeaderRecord = t.intersection(
  [
    t.type({ header: JsonObject, formatVersion: t.number }),
    t.partial({
      file: t.string,
      /** A normalised snapshot fixture (no seq/time in the source lines). */
      normalised: t.boolean,
      /** The placeholder scope of a snapshot fixture; see placeholder-scope.ts. */
      scope: t.string,
    }),
  ],
  'SessionHeaderRecord',
);
export type SessionHeaderRecord = t.TypeOf<typeof SessionHeaderRecord> & { readonly formatVersion: FormatVersion };

/**
 * The single list of event types teamlog decodes strictly, with the codec for each payload.
 * docs/event-catalog.md has an entry for every key (a test checks it) and fixtures/golden has an
 * encoded example of each (the schema-break guard).
 */
export const eventCodecs = {
  'turn/start': TurnStart,
  'turn/end': TurnEnd,
  'step/start': StepBoundary,
  'step/end': StepBoundary,
  'user/message': UserMessage,
  'agent/inbox/spliced': InboxSpliced,
  'team/member': t.union([TeamMemberV1, TeamMemberV2]),
  'team/task': t.union([TeamTaskV1, TeamTaskV2]),
  'team/message/queued': t.union([TeamMessageQueuedV1, TeamMessageQueuedV2]),
  'team/message/delivered': t.union([TeamMessageDeliveredV1, TeamMessageDeliveredV2]),
  'teamlog/session/header': SessionHeaderRecord,
  'teamlog/session/created': SessionCreated,
  'teamlog/session/started': SessionStarted,
  'teamlog/session/resident': SessionResident,
  'teamlog/session/evicted': SessionEvicted,
  'teamlog/session/resumed': SessionResumed,
  'teamlog/session/closed': SessionClosed,
  'teamlog/inbox/accepted': InboxAccepted,
  'teamlog/inbox/claimed': InboxClaimed,
  'teamlog/inbox/canceled': InboxCanceled,
  'teamlog/import/revoked': ImportRevoked,
  'teamlog/import/set-aside': ImportSetAside,
  'teamlog/import/superseded': ImportSuperseded,
} as const;

export type CatalogEventType = keyof typeof eventCodecs;
export const catalogEventTypes = Object.keys(eventCodecs) as CatalogEventType[];
export type EventOf<K extends CatalogEventType> = {
  readonly type: K;
  readonly data: t.TypeOf<(typeof eventCodecs)[K]>;
};
export type CatalogEvent = { [K in CatalogEventType]: EventOf<K> }[CatalogEventType];

/** Records of the superseded mailbox design: decoded, projected, never written. */
export type LegacyMailboxEventType = 'team/message/queued' | 'team/message/delivered';
/** What teamlog may append. Writing a legacy mailbox record does not type-check. */
export type WritableEventType = Exclude<CatalogEventType, LegacyMailboxEventType>;
export type WritableEvent = { [K in WritableEventType]: EventOf<K> }[WritableEventType];

export const isCatalogEventType = (type: string): type is CatalogEventType => Object.hasOwn(eventCodecs, type);
export const isTeamlogEventType = (type: string): boolean => type.startsWith('teamlog/');

export type EventClass = 'catalog' | 'recognised' | 'unknown';
/** catalog: decoded strictly; recognised: a known type of the format, kept verbatim (docs/rules.md#known-event-types); unknown: neither. */
export const classifyEventType = (type: string): EventClass =>
  isCatalogEventType(type) ? 'catalog' : knownSessionEventTypes.has(type) ? 'recognised' : 'unknown';

/** Decode a catalog event's payload strictly (Team records of version 1 and 2 are both accepted). */
export const decodeCatalogEvent = (type: CatalogEventType, data: unknown): Either<DecodeError, CatalogEvent> => {
  if (isTeamRecordType(type)) {
    const decoded = decodeTeamRecord(type, data);
    return isLeft(decoded) ? decoded : right({ type, data } as CatalogEvent);
  }
  const decoded = decodeWith(eventCodecs[type] as t.Decoder<unknown, unknown>, 'data')(data);
  return isLeft(decoded) ? decoded : right({ type, data: decoded.right } as CatalogEvent);
};

/** Decode any event: catalog types strictly; others pass through unchanged with their class. */
export const decodeSessionEvent = (
  type: string,
  data: unknown,
): Either<
  DecodeError,
  { readonly event: CatalogEvent | { readonly type: string; readonly data: unknown }; readonly eventClass: EventClass }
> => {
  const eventClass = classifyEventType(type);
  if (eventClass !== 'catalog') return right({ event: { type, data }, eventClass });
  const decoded = decodeCatalogEvent(type as CatalogEventType, data);
  return isLeft(decoded) ? left(decoded.left) : right({ event: decoded.right, eventClass });
};
