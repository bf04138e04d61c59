import { type Either, isLeft, left, right } from 'fp-ts/Either';
import {
  type LegacyDelivery,
  type MessageId,
  type SessionId,
  type StreamEvent,
  type TaskId,
  type TeamId,
  type TeamMemberSnapshot,
  type TeamMessageSnapshotV2,
  type TeamRecord,
  type TeamRecordType,
  type TeamTaskSnapshot,
  type CatalogEventOf,
  UnsupportedTeamRecordVersion,
  decodeTeamRecord,
  decodeTeamRecordHead,
  isTeamRecordEvent,
  isTeamRecordType,
} from '@teamlog/events';
import type { TeamFailure } from './team-failure';
import { taskGraphViolation, taskNumber } from './task-graph';

export interface MemberEntry {
  readonly snapshot: TeamMemberSnapshot;
  readonly firstSeq: number;
  readonly seq: number;
}

export interface TaskEntry {
  readonly snapshot: TeamTaskSnapshot;
  readonly firstSeq: number;
  readonly seq: number;
}

export interface LegacyMessageEntry {
  readonly message: TeamMessageSnapshotV2 & { readonly delivery?: LegacyDelivery };
  readonly sourceVersion: 1 | 2;
  readonly queuedSeq: number;
  readonly deliveredSeq?: number;
}

/**
 * The Team of one Lead log: roster, tasks and the legacy mailbox, as docs/rules.md#team-records
 * states them. Maps keep insertion order, which is the order of first appearance.
 *
 * The fold is linear: `evolveTeam` updates the maps of the state it is given and returns the next
 * state, so a replay of a million records costs no copies. Keep a state only by folding again.
 */
export interface TeamState {
  readonly teamId: TeamId;
  readonly members: Map<SessionId, MemberEntry>;
  readonly memberNames: Map<string, SessionId>;
  readonly tasks: Map<TaskId, TaskEntry>;
  readonly dependents: Map<TaskId, Set<TaskId>>;
  readonly messages: Map<MessageId, LegacyMessageEntry>;
  readonly nextTaskNumber: number;
  readonly failure?: TeamFailure;
  /** Whether the Lead log holds a Team record of its own team (a team "appears" then). */
  readonly hasRecords: boolean;
}

export const initialTeamState = (teamId: TeamId): TeamState => ({
  teamId,
  members: new Map(),
  memberNames: new Map(),
  tasks: new Map(),
  dependents: new Map(),
  messages: new Map(),
  nextTaskNumber: 1,
  hasRecords: false,
});

const fail = (state: TeamState, event: StreamEvent, reason: string): TeamState => ({
  ...state,
  hasRecords: true,
  failure: { seq: event.seq, type: event.type, reason },
});

/** Fold one Lead-log event into the Team; non-Team events and foreign teams leave it unchanged. */
export const evolveTeam = (state: TeamState, event: StreamEvent): TeamState => {
  if (!isTeamRecordType(event.type) || state.failure !== undefined) return state;
  if (!isTeamRecordEvent(event)) return refusedRecord(state, event.type, event);
  // A forked child inherits its ancestor's records; only the log's own team counts.
  if (event.data.teamId !== state.teamId) return state;
  // The payload as its codec accepted it (either version): no normalised copy, no Either per record.
  const applied = applyPayload(state, event, 'fold');
  if (typeof applied === 'string') return fail(state, event, applied);
  // Once the team has records, a record changes only the maps: no copy of the state per record.
  return applied.hasRecords ? applied : { ...applied, hasRecords: true };
};

/**
 * How a record is applied. `fold`: the state is the fold's own, so an entry that changes is updated
 * in place (nothing is allocated per mailbox record or task snapshot in steady state). `trial`: the
 * state is a decider's clone (`cloneTeamState`), whose entries it shares with the folded state, so
 * a changed entry is a new object.
 */
type ApplyMode = 'fold' | 'trial';

/** The violated rule (as text), or the next state: the same object unless a field other than the maps changes. */
type Applied = string | TeamState;

const applyPayload = (state: TeamState, event: CatalogEventOf<TeamRecordType>, mode: ApplyMode): Applied => {
  switch (event.type) {
    case 'team/member':
      return applyMember(state, event.data.member, event.seq, mode);
    case 'team/task':
      return applyTask(state, event.data.task, event.seq, mode);
    case 'team/message/queued':
      return applyQueued(state, event.data.message, event.data.version, event.seq);
    case 'team/message/delivered':
      return applyDelivered(state, event.data.messageId, event.data.targetId, event.seq, mode);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/**
 * A Team record its codec refuses: the team fails on it, unless its head names another team (the
 * v2 rule reads no further than `{version, teamId}` to pass a foreign record over). Only here, on
 * the failure path, is the payload decoded, to say why.
 */
const refusedRecord = (state: TeamState, type: TeamRecordType, event: StreamEvent): TeamState => {
  const head = decodeTeamRecordHead(event.data);
  if (isLeft(head)) return fail(state, event, `persisted Agent Teams ${type} payload is invalid: ${head.left.message}`);
  if (head.right.teamId !== state.teamId) return state;
  const decoded = decodeTeamRecord(type, event.data);
  if (!isLeft(decoded))
    return fail(state, event, `persisted Agent Teams ${type} payload was refused by its catalog codec`);
  const reason =
    decoded.left instanceof UnsupportedTeamRecordVersion
      ? decoded.left.detail
      : `persisted Agent Teams ${type} payload is invalid: ${decoded.left.message}`;
  return fail(state, event, reason);
};

/**
 * Check a decoded record of the state's own team against the Team rules (docs/rules.md) and apply it.
 * Returns the violated rule (as text) on the left, or the next state on the right: the same object, its
 * maps updated in place (the fold is linear), unless a field other than the maps changes. Deciders call it
 * on a clone (`cloneTeamState`) to refuse a candidate before it is written, so a log teamlog writes never
 * holds a failing record.
 */
export const applyTeamRecord = (state: TeamState, record: TeamRecord, seq: number): Either<string, TeamState> => {
  const applied = applyRecord(state, record, seq);
  return typeof applied === 'string' ? left(applied) : right(applied);
};

const applyRecord = (state: TeamState, record: TeamRecord, seq: number): Applied => {
  switch (record.type) {
    case 'team/member':
      return applyMember(state, record.data.member, seq, 'trial');
    case 'team/task':
      return applyTask(state, record.data.task, seq, 'trial');
    case 'team/message/queued':
      return applyQueued(state, record.data.message, record.data.sourceVersion, seq);
    case 'team/message/delivered':
      return applyDelivered(state, record.data.messageId, record.data.targetId, seq, 'trial');
    default: {
      const unreachable: never = record;
      return unreachable;
    }
  }
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const applyMember = (state: TeamState, member: TeamMemberSnapshot, seq: number, mode: ApplyMode): Applied => {
  const prior = state.members.get(member.id);
  const holder = state.memberNames.get(member.name);
  if (holder !== undefined && holder !== member.id) return `member name "${member.name}" is reused by another member`;
  if (prior === undefined) {
    if (member.phase !== 'provisioning') return `member "${member.id}" must begin provisioning`;
    state.memberNames.set(member.name, member.id);
    state.members.set(member.id, { snapshot: member, firstSeq: seq, seq });
    return state;
  }
  const was = prior.snapshot;
  if (was.name !== member.name || was.provider !== member.provider || was.context !== member.context) {
    return `member "${member.id}" changed immutable identity fields`;
  }
  if (was.phase !== 'provisioning' || member.phase === 'provisioning') {
    return `invalid ${was.phase} -> ${member.phase} transition for member "${member.id}"`;
  }
  state.members.set(member.id, nextSnapshot(prior, member, seq, mode));
  return state;
};

/** An entry's next snapshot: the entry itself, changed in place, when folding; a new entry on a decider's clone. */
const nextSnapshot = <S>(
  prior: { readonly snapshot: S; readonly firstSeq: number; readonly seq: number },
  snapshot: S,
  seq: number,
  mode: ApplyMode,
): { readonly snapshot: S; readonly firstSeq: number; readonly seq: number } => {
  if (mode === 'trial') return { snapshot, firstSeq: prior.firstSeq, seq };
  const entry = prior as Mutable<typeof prior>;
  entry.snapshot = snapshot;
  entry.seq = seq;
  return entry;
};

const applyTask = (state: TeamState, task: TeamTaskSnapshot, seq: number, mode: ApplyMode): Applied => {
  const prior = state.tasks.get(task.id);
  const expected = prior === undefined ? 1 : prior.snapshot.revision + 1;
  if (task.revision !== expected)
    return `task "${task.id}" revision is not contiguous (expected ${expected}, got ${task.revision})`;
  const n = taskNumber(task.id);
  if (n === 'unsafe') return `task id "${task.id}" has a number that is not a safe integer`;
  const violation = taskGraphViolation(state.tasks, task, state.dependents);
  if (violation !== undefined) return violation;
  if (prior !== undefined)
    for (const blocker of prior.snapshot.blockedBy) state.dependents.get(blocker)?.delete(task.id);
  for (const blocker of task.blockedBy) {
    const set = state.dependents.get(blocker);
    if (set === undefined) state.dependents.set(blocker, new Set<TaskId>().add(task.id));
    else set.add(task.id);
  }
  state.tasks.set(
    task.id,
    prior === undefined ? { snapshot: task, firstSeq: seq, seq } : nextSnapshot(prior, task, seq, mode),
  );
  return typeof n === 'number' && n + 1 > state.nextTaskNumber ? { ...state, nextTaskNumber: n + 1 } : state;
};

const applyQueued = (
  state: TeamState,
  message: LegacyMessageEntry['message'],
  sourceVersion: 1 | 2,
  seq: number,
): Applied => {
  if (state.messages.has(message.id)) return `message "${message.id}" queued twice`;
  // `deliveredSeq` is there from the start, so its delivery sets a field and does not reshape the entry.
  state.messages.set(message.id, { message, sourceVersion, queuedSeq: seq, deliveredSeq: undefined });
  return state;
};

const applyDelivered = (
  state: TeamState,
  messageId: MessageId,
  targetId: SessionId,
  seq: number,
  mode: ApplyMode,
): Applied => {
  const queued = state.messages.get(messageId);
  if (queued === undefined) return `message "${messageId}" delivered before queueing`;
  if (queued.message.targetId !== targetId)
    return `message "${messageId}" target changed from "${queued.message.targetId}" to "${targetId}"`;
  if (queued.deliveredSeq !== undefined) return `message "${messageId}" delivered twice`;
  // Set again even when changed in place: the map records which keys changed (see ChangeTrackingMap in projections).
  if (mode === 'fold') {
    (queued as Mutable<LegacyMessageEntry>).deliveredSeq = seq;
    state.messages.set(messageId, queued);
  } else {
    state.messages.set(messageId, {
      message: queued.message,
      sourceVersion: queued.sourceVersion,
      queuedSeq: queued.queuedSeq,
      deliveredSeq: seq,
    });
  }
  return state;
};

/** An independent copy, for deciders that try a candidate record without touching the folded state. */
export const cloneTeamState = (state: TeamState): TeamState => ({
  ...state,
  members: new Map(state.members),
  memberNames: new Map(state.memberNames),
  tasks: new Map(state.tasks),
  dependents: new Map([...state.dependents].map(([id, set]) => [id, new Set(set)])),
  messages: new Map(state.messages),
});
