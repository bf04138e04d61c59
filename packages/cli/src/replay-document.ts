import * as t from 'io-ts';
import { LegacyDelivery, MemberPhase, MessageId, SessionId, TaskId, TaskStatus, TeamId } from '@teamlog/events';

/*
 * The contract of `teamlog replay --json` (docs/user-guide.md). Fields may be added,
 * never renamed or removed: consumers decode with this codec, which lets unknown fields through.
 */

/** Required fields plus optional ones; both let unknown fields through. */
const optional = <R extends t.Props, P extends t.Props>(required: t.TypeC<R>, extra: P, name: string) =>
  t.intersection([required, t.partial(extra)], name);

export const RecoveryJson = optional(
  t.type({ reason: t.string, keptEvents: t.number }),
  { line: t.number, detail: t.string, droppedLines: t.number },
  'RecoveryJson',
);

export const RejectionJson = optional(
  t.type({ message: t.string }),
  { line: t.number, path: t.string },
  'RejectionJson',
);

export const SessionJson = optional(
  t.type({
    /** The id the session's streams are named after (scoped for a normalised snapshot fixture); null when the file has no readable header. */
    id: t.union([SessionId, t.null]),
    file: t.string,
    formatVersion: t.union([t.number, t.null]),
    /** Events kept after recovery. */
    events: t.number,
    recovery: t.union([RecoveryJson, t.null]),
  }),
  {
    /** Present when the file was rejected as a whole: the reason (e.g. `damaged-history`). */
    rejected: t.string,
    rejection: RejectionJson,
    /** The session id the log itself states. */
    statedId: SessionId,
    appended: t.number,
    alreadyStored: t.number,
    unknownTypes: t.readonlyArray(t.string),
    normalised: t.boolean,
    scope: t.string,
  },
  'SessionJson',
);
export type SessionJson = t.TypeOf<typeof SessionJson>;

export const MemberJson = optional(
  t.type({
    id: SessionId,
    name: t.string,
    description: t.string,
    provider: t.string,
    context: t.string,
    phase: MemberPhase,
  }),
  { error: t.string, status: t.string, firstSeq: t.number, seq: t.number },
  'MemberJson',
);

export const TaskJson = optional(
  t.type({
    id: TaskId,
    revision: t.number,
    subject: t.string,
    description: t.string,
    status: TaskStatus,
    blockedBy: t.readonlyArray(TaskId),
    writeScopes: t.readonlyArray(t.string),
  }),
  { ownerId: SessionId, seq: t.number },
  'TaskJson',
);

export const LegacyMessageJson = optional(
  t.type({
    id: MessageId,
    senderId: SessionId,
    senderName: t.string,
    targetId: SessionId,
    queuedSeq: t.number,
    status: t.keyof({ delivered: null, undelivered: null }),
  }),
  { delivery: LegacyDelivery, deliveredSeq: t.number, targetHasMessage: t.boolean, recordVersion: t.number },
  'LegacyMessageJson',
);

export const TeamFailureJson = t.type({ seq: t.number, type: t.string, reason: t.string }, 'TeamFailureJson');

export const TeamJson = optional(
  t.type({
    teamId: TeamId,
    members: t.readonlyArray(MemberJson),
    tasks: t.readonlyArray(TaskJson),
    legacyMessages: t.readonlyArray(LegacyMessageJson),
    failure: t.union([TeamFailureJson, t.null]),
  }),
  { lead: t.type({ id: SessionId, status: t.string }) },
  'TeamJson',
);
export type TeamJson = t.TypeOf<typeof TeamJson>;

export const InboxEntryJson = optional(
  t.type({ sessionId: SessionId, messageId: MessageId, sourceKind: t.string, seq: t.number }),
  { senderSessionId: SessionId, senderName: t.string, list: t.string, status: t.string, origin: t.string },
  'InboxEntryJson',
);
export type InboxEntryJson = t.TypeOf<typeof InboxEntryJson>;

export const AuditFindingJson = optional(
  t.type({ code: t.string, sessionId: SessionId, seq: t.number, detail: t.string }),
  { messageId: MessageId, teamId: TeamId },
  'AuditFindingJson',
);
export type AuditFindingJson = t.TypeOf<typeof AuditFindingJson>;

export const ReplayTotalsJson = t.type(
  {
    files: t.number,
    imported: t.number,
    rejected: t.number,
    notSessionLogs: t.number,
    recovered: t.number,
    appended: t.number,
  },
  'ReplayTotalsJson',
);
export type ReplayTotalsJson = t.TypeOf<typeof ReplayTotalsJson>;

export const ReplayDocument = optional(
  t.type({
    sessions: t.readonlyArray(SessionJson),
    teams: t.readonlyArray(TeamJson),
    inbox: t.readonlyArray(InboxEntryJson),
    audit: t.readonlyArray(AuditFindingJson),
    /** The store the views were read from (a file, `:memory:`, or a redacted URL). */
    store: t.string,
    /** The `$all` position the store has reached (`commit/prepare`); null for an empty store. */
    position: t.union([t.string, t.null]),
    totals: ReplayTotalsJson,
  }),
  {
    /** The `--as-of` moment the views were built at, when one was asked for. */
    asOf: t.string,
  },
  'ReplayDocument',
);
export type ReplayDocument = t.TypeOf<typeof ReplayDocument>;
