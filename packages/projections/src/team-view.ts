import {
  type LegacyDelivery,
  type MemberPhase,
  type MessageId,
  type SessionId,
  type TaskId,
  type TaskStatus,
  type TeamId,
  leadOf,
} from '@teamlog/events';
import type { LegacyMessageEntry, TeamFailure } from '@teamlog/domain';
import { compareText } from './compare-text';
import { LegacyMessageColumns, type QueuedMessageRow, deliveredSeqOf } from './legacy-message-columns';
import { type ProjectionState, holdsMessage } from './projection-state';
import { type RosterStatus, leadStatus, rosterStatus } from './roster-status';
import { hasLog } from './session-facts';
import type { TeamProjection } from './team-projection';

export interface MemberView {
  readonly id: SessionId;
  readonly name: string;
  readonly description: string;
  readonly provider: string;
  readonly context: 'fresh' | 'fork';
  readonly phase: MemberPhase;
  readonly error?: string;
  /** The phase combined with the member session's lifecycle. */
  readonly status: RosterStatus;
  readonly firstSeq: number;
  readonly seq: number;
}

export interface TaskView {
  readonly id: TaskId;
  readonly revision: number;
  readonly subject: string;
  readonly description: string;
  readonly status: TaskStatus;
  readonly ownerId?: SessionId;
  readonly blockedBy: readonly TaskId[];
  readonly writeScopes: readonly string[];
  readonly seq: number;
}

/**
 * A message of the superseded mailbox, read-only: teamlog never delivers or acknowledges it. An
 * optional field the message does not have is present as `undefined` (see `legacyMessageView`).
 */
export interface LegacyMessageView {
  readonly id: MessageId;
  readonly senderId: SessionId;
  readonly senderName: string;
  readonly targetId: SessionId;
  readonly delivery?: LegacyDelivery;
  readonly queuedSeq: number;
  readonly status: 'delivered' | 'undelivered';
  readonly deliveredSeq?: number;
  /** Whether the target's own log holds the message; absent when that log is not in the store. */
  readonly targetHasMessage?: boolean;
  readonly recordVersion: 1 | 2;
}

export interface TeamView {
  readonly teamId: TeamId;
  /** The readable name the engine recorded when it created the team; absent for historical logs. */
  readonly name?: string;
  readonly lead: { readonly id: SessionId; readonly status: RosterStatus };
  readonly members: readonly MemberView[];
  readonly tasks: readonly TaskView[];
  readonly legacyMessages: readonly LegacyMessageView[];
  readonly failure: TeamFailure | null;
}

const members = (state: ProjectionState, team: TeamProjection): MemberView[] =>
  [...team.state.members.values()].map(({ snapshot, firstSeq, seq }) => ({
    ...snapshot,
    status: rosterStatus(snapshot.phase, state.sessions.get(snapshot.id)?.lifecycle),
    firstSeq,
    seq,
  }));

const tasks = (team: TeamProjection): TaskView[] =>
  [...team.state.tasks.values()].map(({ snapshot, seq }) => ({ ...snapshot, seq }));

/** Whether the target's log holds the message, when that log is in the store. */
export const targetHoldsMessage = (
  state: ProjectionState,
  targetId: SessionId,
  messageId: MessageId,
): boolean | undefined => (hasLog(state.sessions.get(targetId)) ? holdsMessage(state, targetId, messageId) : undefined);

/**
 * A legacy mailbox holds hundreds of thousands of messages (a big Lead log): each view is one
 * literal of every field, not spreads of conditional objects. A field the message does not have
 * holds `undefined`, which JSON leaves out as it leaves out an absent one; a literal of one shape
 * keeps its fields in the object, which JSON.stringify reads faster than fields added one by one.
 */
const legacyMessageView = (state: ProjectionState, entry: LegacyMessageEntry): LegacyMessageView => {
  const { message, deliveredSeq } = entry;
  return {
    id: message.id,
    senderId: message.senderId,
    senderName: message.senderName,
    targetId: message.targetId,
    delivery: message.delivery,
    queuedSeq: entry.queuedSeq,
    status: deliveredSeq === undefined ? 'undelivered' : 'delivered',
    deliveredSeq,
    targetHasMessage: targetHoldsMessage(state, message.targetId, message.id),
    recordVersion: entry.sourceVersion,
  };
};

/** The same literal as `legacyMessageView`, read from a one-shot mailbox's row (no entry made). */
const rowView = (state: ProjectionState, row: QueuedMessageRow): LegacyMessageView => {
  const deliveredSeq = deliveredSeqOf(row);
  return {
    id: row.id,
    senderId: row.senderId,
    senderName: row.senderName,
    targetId: row.targetId,
    delivery: row.delivery,
    queuedSeq: row.queuedSeq,
    status: deliveredSeq === undefined ? 'undelivered' : 'delivered',
    deliveredSeq,
    targetHasMessage: targetHoldsMessage(state, row.targetId, row.id),
    recordVersion: row.sourceVersion,
  };
};

const rowViews = (state: ProjectionState, columns: LegacyMessageColumns): LegacyMessageView[] => {
  const views: LegacyMessageView[] = [];
  for (const row of columns.rows) if (row !== undefined) views.push(rowView(state, row));
  return views;
};

const legacyMessages = (state: ProjectionState, team: TeamProjection): LegacyMessageView[] => {
  if (team.state.messages instanceof LegacyMessageColumns) return rowViews(state, team.state.messages);
  const views = new Array<LegacyMessageView>(team.state.messages.size);
  let index = 0;
  for (const entry of team.state.messages.values()) views[index++] = legacyMessageView(state, entry);
  return views;
};

const teamNameOf = (state: ProjectionState, team: TeamProjection): { readonly name?: string } => {
  const name = state.sessions.get(leadOf(team.state.teamId))?.teamName;
  return name === undefined ? {} : { name };
};

export const teamView = (state: ProjectionState, team: TeamProjection): TeamView => ({
  teamId: team.state.teamId,
  ...teamNameOf(state, team),
  lead: { id: leadOf(team.state.teamId), status: leadStatus(state.sessions.get(leadOf(team.state.teamId))?.lifecycle) },
  members: members(state, team),
  tasks: tasks(team),
  legacyMessages: legacyMessages(state, team),
  failure: team.state.failure ?? null,
});

/** Every team that has a record of its own, by team id. */
export const readTeams = (state: ProjectionState): TeamView[] =>
  [...state.teams.values()]
    .filter((team) => team.state.hasRecords)
    .sort((a, b) => compareText(a.state.teamId, b.state.teamId))
    .map((team) => teamView(state, team));
