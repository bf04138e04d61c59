import * as t from 'io-ts';
import { MessageId, SessionId, TeamId } from './ids';
import { openObject, strictObject } from './strict-object';
import { taggedUnion } from './tagged-union';

/** Mailbox era (team events v1/v2): the target's copy of a queued Team message. */
export const TeamMessageSource = strictObject(
  { kind: t.literal('team-message'), teamId: TeamId, messageId: MessageId, senderId: SessionId, senderName: t.string },
  {},
  'TeamMessageSource',
);
export type TeamMessageSource = t.TypeOf<typeof TeamMessageSource>;

/** Continuation relay; Team sends used it for about a day (2026-09-26). */
export const AgentMessageSource = strictObject(
  { kind: t.literal('agent-message'), form: t.literal('relay'), senderSessionId: SessionId },
  {},
  'AgentMessageSource',
);
export type AgentMessageSource = t.TypeOf<typeof AgentMessageSource>;

/** Direct-inbox era and teamlog: the true sender of a Team message. */
export const TeamRelaySource = strictObject(
  { kind: t.literal('team-relay'), form: t.literal('relay'), senderSessionId: SessionId, senderName: t.string },
  {},
  'TeamRelaySource',
);
export type TeamRelaySource = t.TypeOf<typeof TeamRelaySource>;

/** Every other kind (user, model, tool, plugin, goal, ...) is kept with all its fields. */
export const OtherMessageSource = openObject({ kind: t.string }, {}, 'MessageSource');
export type OtherMessageSource = t.TypeOf<typeof OtherMessageSource>;

export const MessageSource = taggedUnion(
  'kind',
  { 'team-message': TeamMessageSource, 'agent-message': AgentMessageSource, 'team-relay': TeamRelaySource },
  OtherMessageSource,
  'MessageSource',
);
export type MessageSource = TeamMessageSource | AgentMessageSource | TeamRelaySource | OtherMessageSource;

export type PeerMessageSource = TeamMessageSource | AgentMessageSource | TeamRelaySource;
export const peerSourceKinds = ['team-message', 'agent-message', 'team-relay'] as const;
export type PeerSourceKind = (typeof peerSourceKinds)[number];

export const isPeerSource = (source: MessageSource): source is PeerMessageSource =>
  (peerSourceKinds as readonly string[]).includes(source.kind);
