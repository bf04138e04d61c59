import * as t from 'io-ts';
import { type Either, left, right, isLeft } from 'fp-ts/Either';
import { TeamContentBlock } from './content-block';
import { DecodeError, decodeWith } from './decode-error';
import { MessageId, SessionId, TaskId, TeamId } from './ids';
import { NonNegativeInteger, PositiveInteger } from './numbers';
import { strictObject } from './strict-object';

/* Agent Teams Lead-log records (docs/rules.md#team-record-payloads), exact shapes. */

export const MemberPhase = t.keyof({ provisioning: null, active: null, failed: null }, 'MemberPhase');
export type MemberPhase = t.TypeOf<typeof MemberPhase>;

export const TeamMemberSnapshot = strictObject(
  {
    id: SessionId,
    name: t.string,
    description: t.string,
    provider: t.string,
    context: t.keyof({ fresh: null, fork: null }, 'MemberContext'),
    phase: MemberPhase,
  },
  { error: t.string },
  'TeamMemberSnapshot',
);
export type TeamMemberSnapshot = t.TypeOf<typeof TeamMemberSnapshot>;

export const TaskStatus = t.keyof({ pending: null, in_progress: null, completed: null, deleted: null }, 'TaskStatus');
export type TaskStatus = t.TypeOf<typeof TaskStatus>;

/** A task snapshot's required fields: other shapes of a task (a tool's task view) are built on these, not restated. */
export const teamTaskProps = {
  id: TaskId,
  revision: PositiveInteger,
  subject: t.string,
  description: t.string,
  status: TaskStatus,
  blockedBy: t.readonlyArray(TaskId),
  writeScopes: t.readonlyArray(t.string),
};

export const TeamTaskSnapshot = strictObject(teamTaskProps, { ownerId: SessionId }, 'TeamTaskSnapshot');
export type TeamTaskSnapshot = t.TypeOf<typeof TeamTaskSnapshot>;

const messageProps = {
  id: MessageId,
  senderId: SessionId,
  senderName: t.string,
  targetId: SessionId,
  content: t.readonlyArray(TeamContentBlock),
};

export const LegacyDelivery = t.keyof({ quiet: null, wakeup: null }, 'LegacyDelivery');
export type LegacyDelivery = t.TypeOf<typeof LegacyDelivery>;

export const TeamMessageSnapshotV1 = strictObject(
  { ...messageProps, delivery: LegacyDelivery },
  {},
  'TeamMessageSnapshotV1',
);
export const TeamMessageSnapshotV2 = strictObject(messageProps, {}, 'TeamMessageSnapshotV2');
export type TeamMessageSnapshotV2 = t.TypeOf<typeof TeamMessageSnapshotV2>;

const versioned = <V extends 1 | 2, P extends t.Props>(version: V, props: P, name: string) =>
  strictObject({ version: t.literal(version), teamId: TeamId, ...props }, {}, name);

export const TeamMemberV1 = versioned(1, { member: TeamMemberSnapshot }, 'TeamMemberV1');
export const TeamMemberV2 = versioned(2, { member: TeamMemberSnapshot }, 'TeamMemberV2');
export const TeamTaskV1 = versioned(1, { task: TeamTaskSnapshot }, 'TeamTaskV1');
export const TeamTaskV2 = versioned(2, { task: TeamTaskSnapshot }, 'TeamTaskV2');
export const TeamMessageQueuedV1 = versioned(1, { message: TeamMessageSnapshotV1 }, 'TeamMessageQueuedV1');
export const TeamMessageQueuedV2 = versioned(2, { message: TeamMessageSnapshotV2 }, 'TeamMessageQueuedV2');
export const TeamMessageDeliveredV1 = versioned(
  1,
  { messageId: MessageId, targetId: SessionId },
  'TeamMessageDeliveredV1',
);
export const TeamMessageDeliveredV2 = versioned(
  2,
  { messageId: MessageId, targetId: SessionId },
  'TeamMessageDeliveredV2',
);

export type TeamMemberRecord = t.TypeOf<typeof TeamMemberV2>;
export type TeamTaskRecord = t.TypeOf<typeof TeamTaskV2>;
export type TeamMessageDeliveredRecord = t.TypeOf<typeof TeamMessageDeliveredV2>;
/** Queued messages normalised to version 2; the v1 `delivery` is kept for the read-only legacy view. */
export type TeamMessageQueuedRecord = t.TypeOf<typeof TeamMessageQueuedV2> & {
  readonly message: TeamMessageSnapshotV2 & { readonly delivery?: LegacyDelivery };
  readonly sourceVersion: 1 | 2;
};

export const teamRecordTypes = ['team/member', 'team/task', 'team/message/queued', 'team/message/delivered'] as const;
export type TeamRecordType = (typeof teamRecordTypes)[number];
export const isTeamRecordType = (type: string): type is TeamRecordType =>
  (teamRecordTypes as readonly string[]).includes(type);

export type TeamRecord =
  | { readonly type: 'team/member'; readonly data: TeamMemberRecord }
  | { readonly type: 'team/task'; readonly data: TeamTaskRecord }
  | { readonly type: 'team/message/queued'; readonly data: TeamMessageQueuedRecord }
  | { readonly type: 'team/message/delivered'; readonly data: TeamMessageDeliveredRecord };

/** `{version, teamId}` come first: docs/rules.md#team-record-head: records are selected and versioned before the payload. */
export const TeamRecordHead = t.type({ version: NonNegativeInteger, teamId: TeamId }, 'TeamRecordHead');
export type TeamRecordHead = t.TypeOf<typeof TeamRecordHead>;

export const decodeTeamRecordHead = decodeWith(TeamRecordHead, 'data');

export const unsupportedTeamRecordVersion = (version: number): DecodeError =>
  new DecodeError(
    'data.version',
    '1 | 2',
    `unsupported Agent Teams event version ${version}`,
    {},
    {
      kind: 'UnsupportedTeamRecordVersion',
      version,
    },
  );

const pick = (type: TeamRecordType, version: 1 | 2): t.Decoder<unknown, unknown> => {
  switch (type) {
    case 'team/member':
      return version === 1 ? TeamMemberV1 : TeamMemberV2;
    case 'team/task':
      return version === 1 ? TeamTaskV1 : TeamTaskV2;
    case 'team/message/queued':
      return version === 1 ? TeamMessageQueuedV1 : TeamMessageQueuedV2;
    case 'team/message/delivered':
      return version === 1 ? TeamMessageDeliveredV1 : TeamMessageDeliveredV2;
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
};

/** Decode a Team record of version 1 or 2 strictly, normalising version 1 to version 2. */
export const decodeTeamRecord = (type: TeamRecordType, data: unknown): Either<DecodeError, TeamRecord> => {
  const head = decodeTeamRecordHead(data);
  if (isLeft(head)) return head;
  const version: number = head.right.version;
  if (version !== 1 && version !== 2) return left(unsupportedTeamRecordVersion(version));
  const decoded = decodeWith(pick(type, version), 'data')(data);
  if (isLeft(decoded)) return decoded;
  return right(normalise(type, decoded.right));
};

/** A Team record whose payload its codec accepted (version 1 or 2), normalised to version 2. */
export const normaliseTeamRecord = <K extends TeamRecordType>(type: K, data: TeamRecordPayload<K>): TeamRecord =>
  normalise(type, data);

/** What the catalog codec of a Team record type accepts: either version. */
export type TeamRecordPayload<K extends TeamRecordType> = {
  'team/member': t.TypeOf<typeof TeamMemberV1> | t.TypeOf<typeof TeamMemberV2>;
  'team/task': t.TypeOf<typeof TeamTaskV1> | t.TypeOf<typeof TeamTaskV2>;
  'team/message/queued': t.TypeOf<typeof TeamMessageQueuedV1> | t.TypeOf<typeof TeamMessageQueuedV2>;
  'team/message/delivered': t.TypeOf<typeof TeamMessageDeliveredV1> | t.TypeOf<typeof TeamMessageDeliveredV2>;
}[K];

const normalise = (type: TeamRecordType, value: unknown): TeamRecord => {
  const record = value as { version: 1 | 2 } & Record<string, unknown>;
  switch (type) {
    case 'team/message/queued': {
      const queued = record as unknown as {
        teamId: TeamId;
        message: TeamMessageSnapshotV2 & { delivery?: LegacyDelivery };
      };
      return {
        type,
        data: { version: 2, teamId: queued.teamId, message: queued.message, sourceVersion: record.version },
      };
    }
    case 'team/member':
      return { type, data: { ...(record as unknown as TeamMemberRecord), version: 2 } };
    case 'team/task':
      return { type, data: { ...(record as unknown as TeamTaskRecord), version: 2 } };
    case 'team/message/delivered':
      return { type, data: { ...(record as unknown as TeamMessageDeliveredRecord), version: 2 } };
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
};
