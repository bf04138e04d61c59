import * as t from 'io-ts';
import {
  type MessageId,
  type SessionId,
  type TaskId,
  TeamId,
  TeamMemberSnapshot,
  TeamMessageSnapshotV1,
  TeamMessageSnapshotV2,
  TeamTaskSnapshot,
} from '@teamlog/events';
import type { LegacyMessageEntry, MemberEntry, TaskEntry, TeamAccumulator } from '@teamlog/domain';
import { ChangeTrackingMap } from './change-tracking-map';
import type { DeliveryMismatch, TeamProjection, TeamRecordFact } from './team-projection';

/*
 * The Team view of one Lead stream as persisted: a head row and one row per member, task, legacy
 * message, record fact and mismatch, so a commit writes what changed rather than the whole team.
 */

const TeamFailureRow = t.type({ seq: t.number, type: t.string, reason: t.string }, 'TeamFailure');

export const TeamHead = t.intersection(
  [
    t.type({ teamId: TeamId, nextTaskNumber: t.number, hasRecords: t.boolean }),
    t.partial({ scope: t.string, failure: TeamFailureRow }),
  ],
  'TeamHead',
);
export type TeamHead = t.TypeOf<typeof TeamHead>;

const entry = <C extends t.Mixed>(snapshot: C, name: string) =>
  t.type({ snapshot, firstSeq: t.number, seq: t.number }, name);
export const MemberRow = entry(TeamMemberSnapshot, 'MemberEntry');
export const TaskRow = entry(TeamTaskSnapshot, 'TaskEntry');

export const LegacyMessageRow = t.intersection(
  [
    t.type({
      message: t.union([TeamMessageSnapshotV1, TeamMessageSnapshotV2]),
      sourceVersion: t.union([t.literal(1), t.literal(2)]),
      queuedSeq: t.number,
    }),
    t.partial({ deliveredSeq: t.number }),
  ],
  'LegacyMessageEntry',
);

/** Everything persisted of one team, in the order the fold built it. */
export interface TeamRows {
  readonly head: TeamHead;
  readonly members: readonly MemberEntry[];
  readonly tasks: readonly TaskEntry[];
  readonly messages: readonly LegacyMessageEntry[];
  readonly records: readonly TeamRecordFact[];
  readonly mismatches: readonly DeliveryMismatch[];
}

export const teamHeadOf = ({ state, scope }: TeamProjection): TeamHead => ({
  teamId: state.teamId,
  nextTaskNumber: state.nextTaskNumber,
  hasRecords: state.hasRecords,
  ...(scope === undefined ? {} : { scope }),
  ...(state.failure === undefined ? {} : { failure: state.failure }),
});

/** The fold's indexes (names, dependents) are derived from the snapshots, as the fold built them. */
export const teamFromRows = (rows: TeamRows): TeamProjection => {
  const members = ChangeTrackingMap.unchanged<SessionId, MemberEntry>(
    rows.members.map((member) => [member.snapshot.id, member]),
  );
  const tasks = ChangeTrackingMap.unchanged<TaskId, TaskEntry>(rows.tasks.map((task) => [task.snapshot.id, task]));
  const dependents = new Map<TaskId, Set<TaskId>>();
  for (const { snapshot } of tasks.values()) {
    for (const blocker of snapshot.blockedBy)
      dependents.set(blocker, (dependents.get(blocker) ?? new Set<TaskId>()).add(snapshot.id));
  }
  const { head } = rows;
  const state: TeamAccumulator = {
    teamId: head.teamId,
    members,
    memberNames: new Map([...members.values()].map((member) => [member.snapshot.name, member.snapshot.id])),
    tasks,
    dependents,
    messages: ChangeTrackingMap.unchanged<MessageId, LegacyMessageEntry>(
      rows.messages.map((message) => [message.message.id, message]),
    ),
    nextTaskNumber: head.nextTaskNumber,
    hasRecords: head.hasRecords,
    ...(head.failure === undefined ? {} : { failure: head.failure }),
  };
  return {
    state,
    ...(head.scope === undefined ? {} : { scope: head.scope }),
    records: [...rows.records],
    mismatches: [...rows.mismatches],
  };
};

/** A team the views keep: it holds a record of its own team, or facts the audit reads. */
export const isWorthKeeping = (team: TeamProjection): boolean =>
  team.state.hasRecords || team.records.length > 0 || team.mismatches.length > 0;
