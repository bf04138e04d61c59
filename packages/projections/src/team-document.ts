import * as t from 'io-ts';
import {
  MessageId, SessionId, TaskId, TeamId, TeamMemberSnapshot, TeamMessageSnapshotV1, TeamMessageSnapshotV2, TeamTaskSnapshot,
} from '@teamlog/events';
import { LegacyMessageEntry, MemberEntry, TaskEntry, TeamState } from '@teamlog/domain';
import { DeliveryMismatch, TeamProjection, TeamRecordFact } from './team-projection';

const entry = <C extends t.Mixed>(snapshot: C, name: string) => t.type({ snapshot, firstSeq: t.number, seq: t.number }, name);

const LegacyMessageDoc = t.intersection(
  [
    t.type({
      message: t.union([TeamMessageSnapshotV1, TeamMessageSnapshotV2]),
      sourceVersion: t.union([t.literal(1), t.literal(2)]),
      queuedSeq: t.number,
    }),
    t.partial({ deliveredSeq: t.number }),
  ],
  'LegacyMessageDoc',
);

/** One Lead stream's Team view as persisted: the fold's state in first-appearance order. */
export const TeamDocument = t.intersection(
  [
    t.type({
      teamId: TeamId,
      nextTaskNumber: t.number,
      hasRecords: t.boolean,
      members: t.array(entry(TeamMemberSnapshot, 'MemberEntry')),
      tasks: t.array(entry(TeamTaskSnapshot, 'TaskEntry')),
      messages: t.array(LegacyMessageDoc),
      records: t.array(TeamRecordFact),
      mismatches: t.array(DeliveryMismatch),
    }),
    t.partial({ scope: t.string, failure: t.type({ seq: t.number, type: t.string, reason: t.string }) }),
  ],
  'TeamDocument',
);
export type TeamDocument = t.TypeOf<typeof TeamDocument>;

export const toTeamDocument = ({ state, records, mismatches }: TeamProjection): TeamDocument => ({
  teamId: state.teamId,
  nextTaskNumber: state.nextTaskNumber,
  hasRecords: state.hasRecords,
  members: [...state.members.values()],
  tasks: [...state.tasks.values()],
  messages: [...state.messages.values()],
  records,
  mismatches,
  ...(state.scope === undefined ? {} : { scope: state.scope }),
  ...(state.failure === undefined ? {} : { failure: state.failure }),
});

/** The fold's indexes (names, dependents) are derived from the snapshots, as the fold built them. */
export const fromTeamDocument = (document: TeamDocument): TeamProjection => {
  const members = new Map<SessionId, MemberEntry>(document.members.map((member) => [member.snapshot.id, member]));
  const tasks = new Map<TaskId, TaskEntry>(document.tasks.map((task) => [task.snapshot.id, task]));
  const dependents = new Map<TaskId, Set<TaskId>>();
  for (const { snapshot } of tasks.values()) {
    for (const blocker of snapshot.blockedBy) dependents.set(blocker, (dependents.get(blocker) ?? new Set<TaskId>()).add(snapshot.id));
  }
  const state: TeamState = {
    teamId: document.teamId,
    ...(document.scope === undefined ? {} : { scope: document.scope }),
    members,
    memberNames: new Map([...members.values()].map((member) => [member.snapshot.name, member.snapshot.id])),
    tasks,
    dependents,
    messages: new Map<MessageId, LegacyMessageEntry>(document.messages.map((message) => [message.message.id, message as LegacyMessageEntry])),
    nextTaskNumber: document.nextTaskNumber,
    hasRecords: document.hasRecords,
    ...(document.failure === undefined ? {} : { failure: document.failure }),
  };
  return { state, records: document.records as TeamRecordFact[], mismatches: document.mismatches as DeliveryMismatch[] };
};

export const isWorthKeeping = (team: TeamProjection): boolean =>
  team.state.hasRecords || team.records.length > 0 || team.mismatches.length > 0;
