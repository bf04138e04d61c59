import { type Either, isLeft, left, right } from 'fp-ts/Either';
import {
  type CatalogEventOf,
  type EventOf,
  type LegacyDelivery,
  type MessageId,
  type PositiveInteger,
  type SessionId,
  type StreamEvent,
  type TaskId,
  type TaskStatus,
  type TeamId,
  type TeamMemberSnapshot,
  type TeamMessageSnapshotV2,
  type TeamRecord,
  type TeamRecordType,
  type TeamTaskSnapshot,
  decodeTeamRecord,
  decodeTeamRecordHead,
  isTeamRecordEvent,
  isTeamRecordType,
  isUnknownVersion,
  leadOf,
  normaliseTeamRecord,
  teamIdOf,
} from '@teamlog/events';
import type { Decider } from './decider';
import { taskGraphViolation, taskNumber } from './task-graph';

/*
 * The team aggregate: the roster and tasks of one team, over its Lead's stream (the team id is the
 * Lead's session id). Read top to bottom: rejections, state, the Team rules applied to one record,
 * the folds (pure for deciders, in place for projections), commands, decide, the decider.
 */

/** The name the Lead goes by in Team messages; `send({ target: 'lead' })` addresses it. */
export const leadName = 'lead';

// ---------------------------------------------------------------------------------------------
// Rejections

/** The first Team record that broke a Team rule (docs/rules.md#team-failure-mode); later Team records are ignored. */
export interface TeamFailure {
  readonly seq: number;
  readonly type: string;
  readonly reason: string;
}

/** Why a roster or task change was refused, as data. Nothing is written. */
export type TeamRejection =
  /** The candidate record breaks a Team rule (docs/rules.md#decide-before-write; the reason is the rule's wording). */
  | { readonly code: 'TeamRuleViolation'; readonly reason: string }
  /** Compare-and-set on a task failed: someone changed it since the caller read it. */
  | {
      readonly code: 'TaskRevisionConflict';
      readonly taskId: TaskId;
      readonly expected: number;
      readonly actual: number;
    }
  | { readonly code: 'TaskNotFound'; readonly taskId: TaskId }
  | { readonly code: 'MemberNotFound'; readonly member: string }
  /** Member names are addresses: empty names and "lead" (the Lead's address) are refused. */
  | { readonly code: 'InvalidMemberName'; readonly memberName: string; readonly detail: string }
  /** A task owner must be the Lead or a member of the team. */
  | { readonly code: 'UnknownTaskOwner'; readonly ownerId: SessionId }
  /** The Lead log already holds a failing Team record; teamlog adds nothing after it. */
  | { readonly code: 'TeamLogFailed'; readonly failure: TeamFailure };

export type TeamRejectionCode = TeamRejection['code'];

export const describeTeamRejection = (rejection: TeamRejection): string => {
  switch (rejection.code) {
    case 'TeamRuleViolation':
      return rejection.reason;
    case 'TaskRevisionConflict':
      return `task "${rejection.taskId}" is at revision ${rejection.actual}, not ${rejection.expected}`;
    case 'TaskNotFound':
      return `no task "${rejection.taskId}"`;
    case 'MemberNotFound':
      return `no team member "${rejection.member}"`;
    case 'InvalidMemberName':
      return `member name ${JSON.stringify(rejection.memberName)} ${rejection.detail}`;
    case 'UnknownTaskOwner':
      return `task owner "${rejection.ownerId}" is not the Lead or a member of the team`;
    case 'TeamLogFailed': {
      const { seq, type, reason } = rejection.failure;
      return `the team's log failed at seq ${seq} (${type}): ${reason}`;
    }
    default: {
      const unreachable: never = rejection;
      return unreachable;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// State

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
 */
export interface TeamState {
  readonly teamId: TeamId;
  readonly members: ReadonlyMap<SessionId, MemberEntry>;
  readonly memberNames: ReadonlyMap<string, SessionId>;
  readonly tasks: ReadonlyMap<TaskId, TaskEntry>;
  readonly dependents: ReadonlyMap<TaskId, ReadonlySet<TaskId>>;
  readonly messages: ReadonlyMap<MessageId, LegacyMessageEntry>;
  readonly nextTaskNumber: number;
  readonly failure?: TeamFailure;
  /** Whether the Lead log holds a Team record of its own team (a team "appears" then). */
  readonly hasRecords: boolean;
}

/**
 * The Team a projection accumulates over a whole Lead log: the same shape, its maps updated in
 * place so a replay of a million records costs no copies. Only the projection that owns it holds one.
 */
export interface TeamAccumulator extends TeamState {
  readonly members: Map<SessionId, MemberEntry>;
  readonly memberNames: Map<string, SessionId>;
  readonly tasks: Map<TaskId, TaskEntry>;
  /** The fold changes its sets in place; a pure fold's copy of this map replaces a set it changes (see ApplyMode). */
  readonly dependents: Map<TaskId, ReadonlySet<TaskId>>;
  readonly messages: Map<MessageId, LegacyMessageEntry>;
  /**
   * Set when `messages` keeps its messages as columns (views read once): the fold then hands a
   * queued message's fields to it and reads a delivery's check from it, with no entry per message.
   */
  readonly mailboxColumns?: LegacyMailboxColumns;
}

/**
 * A legacy mailbox kept as columns of a message's fields, for a fold that reads it once: what the
 * mailbox rules read of a queued message (by its index), and the fold's two writes.
 */
export interface LegacyMailboxColumns {
  /** The index of the queued message, or -1. */
  indexOf(id: MessageId): number;
  targetAt(index: number): SessionId;
  isDeliveredAt(index: number): boolean;
  /** Queue a message, unless its id is queued already: then false, and the columns are as they were. */
  queue(
    message: LegacyMessageEntry['message'],
    senderId: SessionId,
    targetId: SessionId,
    sourceVersion: 1 | 2,
    seq: number,
  ): boolean;
  deliverAt(index: number, seq: number): void;
}

export const initialTeamAccumulator = (teamId: TeamId): TeamAccumulator => ({
  teamId,
  members: new Map(),
  memberNames: new Map(),
  tasks: new Map(),
  dependents: new Map(),
  messages: new Map(),
  nextTaskNumber: 1,
  hasRecords: false,
});

export const initialTeamState = (teamId: TeamId): TeamState => initialTeamAccumulator(teamId);

// ---------------------------------------------------------------------------------------------
// The Team rules, one record at a time (in place, on an accumulator)

/**
 * How a record is applied. `fold`: the accumulator is the fold's own, so an entry that changes is
 * updated in place, a dependents set is changed in place and a new task moves `nextTaskNumber` in
 * place (nothing is allocated per mailbox record or task snapshot in steady state). `trial`: the accumulator is a pure fold's private copy
 * (`writableFor`), whose maps share their entries and sets with the given state, so whatever
 * changes is a new object and the given state is never touched.
 */
type ApplyMode = 'fold' | 'trial';

/**
 * The violated rule (as text), or the next accumulator: the same object unless a field other than
 * the maps (and, folding, the next task number) changes.
 */
type Applied = string | TeamAccumulator;

const eitherOf = (applied: Applied): Either<string, TeamAccumulator> =>
  typeof applied === 'string' ? left(applied) : right(applied);

const applyRecord = (acc: TeamAccumulator, record: TeamRecord, seq: number, mode: ApplyMode): Applied => {
  switch (record.type) {
    case 'team/member':
      return applyMember(acc, record.data.member, seq, mode);
    case 'team/task':
      return applyTask(acc, record.data.task, seq, mode);
    case 'team/message/queued':
      return applyQueued(acc, record.data.message, record.data.sourceVersion, seq, mode);
    case 'team/message/delivered':
      return applyDelivered(acc, record.data.messageId, record.data.targetId, seq, mode);
    default: {
      const unreachable: never = record;
      return unreachable;
    }
  }
};

/** A payload as its codec accepted it (either version), applied without a normalised copy. */
const applyPayload = (acc: TeamAccumulator, event: CatalogEventOf<TeamRecordType>, mode: ApplyMode): Applied => {
  switch (event.type) {
    case 'team/member':
      return applyMember(acc, event.data.member, event.seq, mode);
    case 'team/task':
      return applyTask(acc, event.data.task, event.seq, mode);
    case 'team/message/queued':
      return applyQueued(acc, event.data.message, event.data.version, event.seq, mode);
    case 'team/message/delivered':
      return applyDelivered(acc, event.data.messageId, event.data.targetId, event.seq, mode);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/**
 * Check a decoded record of the accumulator's own team against the Team rules (docs/rules.md) and
 * apply it in place. Returns the violated rule (as text) on the left, or the next accumulator on
 * the right: the same object, its maps and next task number updated, unless another field changes. An
 * entry the record changes (a member's or task's next snapshot, a delivery) is the held entry,
 * updated: the accumulator must be the caller's own, sharing its entries with no other state.
 */
export const accumulateTeamRecord = (
  acc: TeamAccumulator,
  record: TeamRecord,
  seq: number,
): Either<string, TeamAccumulator> => eitherOf(applyRecord(acc, record, seq, 'fold'));

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** An entry's next snapshot: the entry itself, changed in place, when folding; a new entry on a trial copy. */
const nextEntry = <E extends MemberEntry | TaskEntry>(
  prior: E,
  snapshot: E['snapshot'],
  seq: number,
  mode: ApplyMode,
): E => {
  if (mode === 'trial') return { snapshot, firstSeq: prior.firstSeq, seq } as E;
  const entry = prior as Mutable<E>;
  entry.snapshot = snapshot;
  entry.seq = seq;
  return entry;
};

const applyMember = (acc: TeamAccumulator, member: TeamMemberSnapshot, seq: number, mode: ApplyMode): Applied => {
  const prior = acc.members.get(member.id);
  const holder = acc.memberNames.get(member.name);
  if (holder !== undefined && holder !== member.id) return `member name "${member.name}" is reused by another member`;
  if (prior === undefined) {
    if (member.phase !== 'provisioning') return `member "${member.id}" must begin provisioning`;
    acc.memberNames.set(member.name, member.id);
    acc.members.set(member.id, { snapshot: member, firstSeq: seq, seq });
    return acc;
  }
  const was = prior.snapshot;
  if (was.name !== member.name || was.provider !== member.provider || was.context !== member.context) {
    return `member "${member.id}" changed immutable identity fields`;
  }
  if (was.phase !== 'provisioning' || member.phase === 'provisioning') {
    return `invalid ${was.phase} -> ${member.phase} transition for member "${member.id}"`;
  }
  // Set again even when changed in place: a change-tracking map records which keys changed.
  acc.members.set(member.id, nextEntry(prior, member, seq, mode));
  return acc;
};

const without = (set: ReadonlySet<TaskId>, id: TaskId): ReadonlySet<TaskId> => {
  const next = new Set(set);
  next.delete(id);
  return next;
};

const sameBlockers = (a: readonly TaskId[], b: readonly TaskId[]): boolean => {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
};

/**
 * The task's edges move from its prior blockers to its new ones: in place when folding; a trial
 * copy replaces each set it changes, since it shares them with the given state.
 */
const moveDependents = (
  acc: TeamAccumulator,
  task: TeamTaskSnapshot,
  prior: TaskEntry | undefined,
  mode: ApplyMode,
): void => {
  // Most snapshots change a status or an owner, not the edges: nothing to move.
  if (prior !== undefined && sameBlockers(prior.snapshot.blockedBy, task.blockedBy)) return;
  const { dependents } = acc;
  if (prior !== undefined) {
    for (const blocker of prior.snapshot.blockedBy) {
      const set = dependents.get(blocker);
      if (set === undefined) continue;
      if (mode === 'fold') (set as Set<TaskId>).delete(task.id);
      else dependents.set(blocker, without(set, task.id));
    }
  }
  for (const blocker of task.blockedBy) {
    const set = dependents.get(blocker);
    if (set === undefined) dependents.set(blocker, new Set<TaskId>().add(task.id));
    else if (mode === 'fold') (set as Set<TaskId>).add(task.id);
    else dependents.set(blocker, new Set(set).add(task.id));
  }
};

/**
 * A live task's next snapshot with the same blockers, live too: the graph was valid with these
 * edges and nothing else changes, so no rule of docs/rules.md#task-dependency-graph can break (its
 * blockers are live, since deleting one would have failed on this dependent) and no walk is needed.
 */
const sameLiveEdges = (prior: TaskEntry | undefined, task: TeamTaskSnapshot): boolean =>
  prior !== undefined &&
  prior.snapshot.status !== 'deleted' &&
  task.status !== 'deleted' &&
  sameBlockers(prior.snapshot.blockedBy, task.blockedBy);

const applyTask = (acc: TeamAccumulator, task: TeamTaskSnapshot, seq: number, mode: ApplyMode): Applied => {
  const prior = acc.tasks.get(task.id);
  const expected = prior === undefined ? 1 : prior.snapshot.revision + 1;
  if (task.revision !== expected)
    return `task "${task.id}" revision is not contiguous (expected ${expected}, got ${task.revision})`;
  const n = taskNumber(task.id);
  if (n === 'unsafe') return `task id "${task.id}" has a number that is not a safe integer`;
  const violation = sameLiveEdges(prior, task) ? undefined : taskGraphViolation(acc.tasks, task, acc.dependents);
  if (violation !== undefined) return violation;
  moveDependents(acc, task, prior, mode);
  acc.tasks.set(
    task.id,
    prior === undefined ? { snapshot: task, firstSeq: seq, seq } : nextEntry(prior, task, seq, mode),
  );
  return typeof n === 'number' && n + 1 > acc.nextTaskNumber ? withNextTaskNumber(acc, n + 1, mode) : acc;
};

/** A new task's number moves the next one: in place when folding (every new task does), a copy on a trial. */
const withNextTaskNumber = (acc: TeamAccumulator, next: number, mode: ApplyMode): TeamAccumulator => {
  if (mode === 'trial') return { ...acc, nextTaskNumber: next };
  (acc as Mutable<TeamAccumulator>).nextTaskNumber = next;
  return acc;
};

/**
 * A session id as the Team already holds it (the Lead's, a member's), else as given: a Lead log
 * names a few dozen sessions in hundreds of thousands of messages, and each parsed line brings its
 * own copy of each id, which the kept message would otherwise hold for the rest of the replay.
 */
const heldSessionId = (acc: TeamState, id: SessionId): SessionId =>
  id === leadOf(acc.teamId) ? leadOf(acc.teamId) : (acc.members.get(id)?.snapshot.id ?? id);

/*
 * The mailbox rules (docs/rules.md#team-records), one text each, whichever way the mailbox is kept.
 */
const queuedTwice = (id: MessageId): string => `message "${id}" queued twice`;

const deliveredBeforeQueueing = (id: MessageId): string => `message "${id}" delivered before queueing`;

/** A delivery of a queued message: the rule it breaks, or undefined. */
const deliveryViolation = (
  messageId: MessageId,
  queuedTargetId: SessionId,
  delivered: boolean,
  targetId: SessionId,
): string | undefined => {
  if (queuedTargetId !== targetId)
    return `message "${messageId}" target changed from "${queuedTargetId}" to "${targetId}"`;
  return delivered ? `message "${messageId}" delivered twice` : undefined;
};

/** The fold's own columns, when it keeps them; a trial copy never writes into them. */
const columnsFor = (acc: TeamAccumulator, mode: ApplyMode): LegacyMailboxColumns | undefined =>
  mode === 'fold' ? acc.mailboxColumns : undefined;

const applyQueued = (
  acc: TeamAccumulator,
  queued: LegacyMessageEntry['message'],
  sourceVersion: 1 | 2,
  seq: number,
  mode: ApplyMode,
): Applied => {
  const columns = columnsFor(acc, mode);
  if (columns !== undefined) {
    // One probe of the index per message: the columns tell a message queued before as they queue.
    const senderId = heldSessionId(acc, queued.senderId);
    const fresh = columns.queue(queued, senderId, heldSessionId(acc, queued.targetId), sourceVersion, seq);
    return fresh ? acc : queuedTwice(queued.id);
  }
  if (acc.messages.has(queued.id)) return queuedTwice(queued.id);
  const message = {
    ...queued,
    senderId: heldSessionId(acc, queued.senderId),
    targetId: heldSessionId(acc, queued.targetId),
  };
  // `deliveredSeq` is there from the start, so a delivery sets a field and does not reshape the entry.
  acc.messages.set(message.id, { message, sourceVersion, queuedSeq: seq, deliveredSeq: undefined });
  return acc;
};

const deliverInColumns = (
  columns: LegacyMailboxColumns,
  acc: TeamAccumulator,
  messageId: MessageId,
  targetId: SessionId,
  seq: number,
): Applied => {
  const index = columns.indexOf(messageId);
  if (index === -1) return deliveredBeforeQueueing(messageId);
  const violation = deliveryViolation(messageId, columns.targetAt(index), columns.isDeliveredAt(index), targetId);
  if (violation !== undefined) return violation;
  columns.deliverAt(index, seq);
  return acc;
};

const applyDelivered = (
  acc: TeamAccumulator,
  messageId: MessageId,
  targetId: SessionId,
  seq: number,
  mode: ApplyMode,
): Applied => {
  const columns = columnsFor(acc, mode);
  if (columns !== undefined) return deliverInColumns(columns, acc, messageId, targetId, seq);
  const queued = acc.messages.get(messageId);
  if (queued === undefined) return deliveredBeforeQueueing(messageId);
  const violation = deliveryViolation(messageId, queued.message.targetId, queued.deliveredSeq !== undefined, targetId);
  if (violation !== undefined) return violation;
  if (mode === 'fold') {
    (queued as Mutable<LegacyMessageEntry>).deliveredSeq = seq;
    // Set again although changed in place: a change-tracking map records which keys changed.
    acc.messages.set(messageId, queued);
  } else {
    acc.messages.set(messageId, {
      message: queued.message,
      sourceVersion: queued.sourceVersion,
      queuedSeq: queued.queuedSeq,
      deliveredSeq: seq,
    });
  }
  return acc;
};

/**
 * A private accumulator for one record of a pure fold: a copy of only the maps the record can
 * change (copy on write), the others shared with the given state, which is never touched.
 */
const writableFor = (state: TeamState, type: TeamRecordType): TeamAccumulator => {
  const shared = state as TeamAccumulator;
  switch (type) {
    case 'team/member':
      return { ...shared, members: new Map(state.members), memberNames: new Map(state.memberNames) };
    case 'team/task':
      return { ...shared, tasks: new Map(state.tasks), dependents: new Map(state.dependents) };
    case 'team/message/queued':
    case 'team/message/delivered':
      return { ...shared, messages: new Map(state.messages) };
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
};

/**
 * Check a decoded record of the state's own team against the Team rules and apply it, purely: the
 * violated rule (as text) on the left, or the next state on the right; the given state, its maps,
 * entries and sets are unchanged either way. Deciders try a candidate record with it before it is
 * written, so a log teamlog writes never holds a failing record.
 */
export const applyTeamRecord = (state: TeamState, record: TeamRecord, seq: number): Either<string, TeamState> =>
  eitherOf(applyRecord(writableFor(state, record.type), record, seq, 'trial'));

// ---------------------------------------------------------------------------------------------
// Folds

const fail = <S extends TeamState>(state: S, event: StreamEvent, reason: string): S => ({
  ...state,
  hasRecords: true,
  failure: { seq: event.seq, type: event.type, reason },
});

/**
 * A Team record its codec refuses: the team fails on it, unless its head names another team (the
 * v2 rule reads no further than `{version, teamId}` to pass a foreign record over). Only here, on
 * the failure path, is the payload decoded, to say why.
 */
const refusedRecord = <S extends TeamState>(state: S, type: TeamRecordType, event: StreamEvent): S => {
  const head = decodeTeamRecordHead(event.data);
  if (isLeft(head)) return fail(state, event, `persisted Agent Teams ${type} payload is invalid: ${head.left.message}`);
  if (head.right.teamId !== state.teamId) return state;
  const decoded = decodeTeamRecord(type, event.data);
  if (!isLeft(decoded))
    return fail(state, event, `persisted Agent Teams ${type} payload was refused by its catalog codec`);
  const reason = isUnknownVersion(decoded.left, 'UnsupportedTeamRecordVersion')
    ? decoded.left.detail
    : `persisted Agent Teams ${type} payload is invalid: ${decoded.left.message}`;
  return fail(state, event, reason);
};

/**
 * Whether an event is a Team record to apply: of the state's own team (a forked child inherits its
 * ancestor's records; only the log's own team counts), its codec's verdict taken, the team not failed.
 */
const isOwnRecord = (state: TeamState, event: StreamEvent): event is CatalogEventOf<TeamRecordType> =>
  state.failure === undefined && isOwnTeamRecord(state, event);

/** A Team record its codec accepted, of the state's own team (whether the team failed is not asked). */
export const isOwnTeamRecord = (state: TeamState, event: StreamEvent): event is CatalogEventOf<TeamRecordType> =>
  isTeamRecordEvent(event) && event.data.teamId === state.teamId;

/** A Team record event that is not one to apply: the state as it is, or failed on a refused record of its own team. */
const notApplied = <S extends TeamState>(state: S, event: StreamEvent): S =>
  !isTeamRecordType(event.type) || state.failure !== undefined || event.catalog
    ? state
    : refusedRecord(state, event.type, event);

const withRecords = <S extends TeamState>(state: S): S => (state.hasRecords ? state : { ...state, hasRecords: true });

/**
 * Fold one Lead-log event into the Team, purely: a Team record of the own team yields a new state
 * that copies the maps (and entries) it changes; any other event returns the same state. Linear in
 * the maps it copies per record, so for short folds (a candidate, a test); whole streams accumulate.
 */
export const evolveTeam = (state: TeamState, event: StreamEvent): TeamState => {
  if (!isOwnRecord(state, event)) return notApplied(state, event);
  const applied = applyTeamRecord(state, normaliseTeamRecord(event.type, event.data), event.seq);
  return isLeft(applied) ? fail(state, event, applied.left) : withRecords(applied.right);
};

/**
 * Fold one Lead-log event into an accumulated Team, in place: the projections' fold over whole
 * logs. Once the team has records, a record changes only the maps and the entry it names: no copy
 * of the state, no new entry for a delivery or a next snapshot, and the payload is applied as its
 * codec accepted it (no normalised copy, no `Either`).
 */
export const accumulateTeam = (acc: TeamAccumulator, event: StreamEvent): TeamAccumulator =>
  isOwnRecord(acc, event) ? accumulateOwnTeamRecord(acc, event) : notApplied(acc, event);

/**
 * `accumulateTeam` of a record its caller has already found to be one to apply (`isOwnTeamRecord`):
 * the views check a record's team once per event, not once for their facts and again here.
 */
export const accumulateOwnTeamRecord = (
  acc: TeamAccumulator,
  event: CatalogEventOf<TeamRecordType>,
): TeamAccumulator => {
  const applied = applyPayload(acc, event, 'fold');
  return typeof applied === 'string' ? fail(acc, event, applied) : withRecords(applied);
};

/**
 * The Team as the Lead stream holds it, and that stream's revision. Linear in its Team: evolving
 * accumulates into the maps of the state it is given, so a Lead log of any length folds in linear
 * time (the pure `evolveTeam` copies a map per record: quadratic, 1,000x slower than in place at
 * 16,384 mailbox records). Decisions stay pure: `decideTeam` tries a candidate with the pure
 * `applyTeamRecord`, which never changes this state. Keep a state only by folding again.
 */
export interface TeamStreamState {
  readonly team: TeamAccumulator;
  readonly revision: number;
}

export const initialTeamStreamState = (teamId: TeamId): TeamStreamState => ({
  team: initialTeamAccumulator(teamId),
  revision: -1,
});

export const evolveTeamStream = (state: TeamStreamState, event: StreamEvent): TeamStreamState => ({
  team: accumulateTeam(state.team, event),
  revision: event.seq,
});

// ---------------------------------------------------------------------------------------------
// Commands

export type MemberSpec = Omit<TeamMemberSnapshot, 'phase' | 'error'>;

export interface TaskSpec {
  readonly subject: string;
  readonly description: string;
  readonly blockedBy: readonly TaskId[];
  readonly writeScopes: readonly string[];
  readonly ownerId?: SessionId;
}

/** A task change; `ownerId: null` releases the task. */
export interface TaskChanges {
  readonly subject?: string;
  readonly description?: string;
  readonly status?: TaskStatus;
  readonly ownerId?: SessionId | null;
  readonly blockedBy?: readonly TaskId[];
  readonly writeScopes?: readonly string[];
}

export type MemberOutcome = { readonly phase: 'active' } | { readonly phase: 'failed'; readonly error: string };

export type TeamCommand =
  | { readonly type: 'provision-member'; readonly member: MemberSpec }
  | { readonly type: 'settle-member'; readonly memberId: SessionId; readonly outcome: MemberOutcome }
  | { readonly type: 'create-task'; readonly task: TaskSpec }
  | {
      readonly type: 'update-task';
      readonly taskId: TaskId;
      readonly expectedRevision: number;
      readonly changes: TaskChanges;
    };

export type TeamWriteEvent = EventOf<'team/member'> | EventOf<'team/task'>;

// ---------------------------------------------------------------------------------------------
// Decide

type MemberRecord = Extract<TeamRecord, { readonly type: 'team/member' }>;
type TaskRecord = Extract<TeamRecord, { readonly type: 'team/task' }>;

const memberRecord = (teamId: TeamId, member: TeamMemberSnapshot): MemberRecord => ({
  type: 'team/member',
  data: { version: 2, teamId, member },
});
const taskRecord = (teamId: TeamId, task: TeamTaskSnapshot): TaskRecord => ({
  type: 'team/task',
  data: { version: 2, teamId, task },
});

type Decision = Either<TeamRejection, TeamWriteEvent[]>;

/** Try the candidate with the Team rules (docs/rules.md#decide-before-write); a refused candidate is never written. */
const checked = (state: TeamStreamState, record: MemberRecord | TaskRecord): Decision => {
  const applied = applyTeamRecord(state.team, record, state.revision + 1);
  return isLeft(applied) ? left({ code: 'TeamRuleViolation', reason: applied.left }) : right([record]);
};

const isInTeam = (team: TeamState, id: SessionId): boolean => id === leadOf(team.teamId) || team.members.has(id);

const provision = (state: TeamStreamState, member: MemberSpec): Decision => {
  if (member.name.trim().length === 0)
    return left({ code: 'InvalidMemberName', memberName: member.name, detail: 'is empty' });
  if (member.name === leadName)
    return left({ code: 'InvalidMemberName', memberName: member.name, detail: 'addresses the Lead' });
  return checked(state, memberRecord(state.team.teamId, { ...member, phase: 'provisioning' }));
};

const settle = (state: TeamStreamState, memberId: SessionId, outcome: MemberOutcome): Decision => {
  const prior = state.team.members.get(memberId);
  if (prior === undefined) return left({ code: 'MemberNotFound', member: memberId });
  // Settling twice to the same outcome (a recovery racing the spawn) writes nothing more.
  if (prior.snapshot.phase === outcome.phase) return right([]);
  const { error: _error, ...identity } = prior.snapshot;
  return checked(state, memberRecord(state.team.teamId, { ...identity, ...outcome }));
};

const createTask = (state: TeamStreamState, spec: TaskSpec): Decision => {
  if (spec.ownerId !== undefined && !isInTeam(state.team, spec.ownerId))
    return left({ code: 'UnknownTaskOwner', ownerId: spec.ownerId });
  const task: TeamTaskSnapshot = {
    id: `task-${state.team.nextTaskNumber}` as TaskId,
    revision: 1 as PositiveInteger,
    subject: spec.subject,
    description: spec.description,
    status: 'pending',
    blockedBy: spec.blockedBy,
    writeScopes: spec.writeScopes,
    ...(spec.ownerId === undefined ? {} : { ownerId: spec.ownerId }),
  };
  return checked(state, taskRecord(state.team.teamId, task));
};

const updateTask = (
  state: TeamStreamState,
  taskId: TaskId,
  expectedRevision: number,
  changes: TaskChanges,
): Decision => {
  const prior = state.team.tasks.get(taskId)?.snapshot;
  if (prior === undefined) return left({ code: 'TaskNotFound', taskId });
  if (prior.revision !== expectedRevision)
    return left({ code: 'TaskRevisionConflict', taskId, expected: expectedRevision, actual: prior.revision });
  const { ownerId, ...rest } = changes;
  if (ownerId !== undefined && ownerId !== null && !isInTeam(state.team, ownerId))
    return left({ code: 'UnknownTaskOwner', ownerId });
  const { ownerId: priorOwner, ...priorRest } = prior;
  const owner = ownerId === undefined ? priorOwner : ownerId === null ? undefined : ownerId;
  const task: TeamTaskSnapshot = {
    ...priorRest,
    ...rest,
    revision: (prior.revision + 1) as PositiveInteger,
    ...(owner === undefined ? {} : { ownerId: owner }),
  };
  return checked(state, taskRecord(state.team.teamId, task));
};

/** Roster and task changes, checked with the Team rules before they are written (docs/rules.md#decide-before-write). */
export const decideTeam = (command: TeamCommand, state: TeamStreamState): Decision => {
  if (state.team.failure !== undefined) return left({ code: 'TeamLogFailed', failure: state.team.failure });
  switch (command.type) {
    case 'provision-member':
      return provision(state, command.member);
    case 'settle-member':
      return settle(state, command.memberId, command.outcome);
    case 'create-task':
      return createTask(state, command.task);
    case 'update-task':
      return updateTask(state, command.taskId, command.expectedRevision, command.changes);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

/** The team roster and tasks: the aggregate over the Lead's stream. */
export const teamRoster: Decider<TeamCommand, TeamWriteEvent, TeamStreamState, TeamRejection> = {
  decide: decideTeam,
  evolve: evolveTeamStream,
  initialState: (lead) => initialTeamStreamState(teamIdOf(lead)),
};
