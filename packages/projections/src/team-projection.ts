import * as t from 'io-ts';
import {
  type MessageId,
  type SessionId,
  TeamRecordHead,
  type TeamRecordType,
  isTeamRecordEvent,
  isTeamRecordType,
  teamIdOf,
} from '@teamlog/events';
import {
  type TeamAccumulator,
  type TeamState,
  accumulateOwnTeamRecord,
  accumulateTeam,
  initialTeamAccumulator,
  isOwnTeamRecord,
} from '@teamlog/domain';
import { ChangeTrackingMap } from './change-tracking-map';
import { LegacyMessageColumns } from './legacy-message-columns';
import { type EraRules, mayBreakRecordEra } from './era-rules';
import type { SessionEvent } from './session-event';
import { scopeOfSessionId } from './session-scope';
import { scopedTeamRecord } from './team-record-scope';

/** A Team record of the Lead's own team that the fold considered; the era audit reads these. */
export const TeamRecordFact = t.type(
  { seq: t.number, type: t.string, version: t.number, time: t.number, normalised: t.boolean },
  'TeamRecordFact',
);
export type TeamRecordFact = t.TypeOf<typeof TeamRecordFact> & { readonly type: TeamRecordType };

/** A `team/message/delivered` naming another target than the queued message (the team fails on it). */
export const DeliveryMismatch = t.type(
  { messageId: t.string, seq: t.number, queuedTargetId: t.string, deliveredTargetId: t.string },
  'DeliveryMismatch',
);
export type DeliveryMismatch = t.TypeOf<typeof DeliveryMismatch> & {
  readonly messageId: MessageId;
  readonly queuedTargetId: SessionId;
  readonly deliveredTargetId: SessionId;
};

/** The Team of one Lead stream: the Team fold (docs/rules.md#team-failure-mode) plus the facts the audit needs. */
export interface TeamProjection {
  readonly state: TeamAccumulator;
  /** The placeholder scope of a snapshot fixture's Lead (its ids are resolved in it); absent for real logs. */
  readonly scope?: string;
  readonly records: TeamRecordFact[];
  readonly mismatches: DeliveryMismatch[];
  /** Set for views read once (ProjectionState.keepsLegacyContent false): a queued message keeps no content. */
  readonly dropsLegacyContent?: true;
  /** Set for views read once: only the record facts the era audit could find against are kept (ProjectionState.recordFactsFor). */
  readonly recordFactsFor?: EraRules;
}

/** How the Team's views are kept (ProjectionState.tracksTeamChanges and keepsLegacyContent). */
export interface TeamProjectionOptions {
  readonly tracked?: boolean;
  readonly keepsLegacyContent?: boolean;
  readonly recordFactsFor?: EraRules;
}

const initialState = (lead: SessionId, options: TeamProjectionOptions): TeamAccumulator => {
  const initial = initialTeamAccumulator(teamIdOf(lead));
  if (options.tracked ?? true)
    return {
      ...initial,
      members: new ChangeTrackingMap(),
      tasks: new ChangeTrackingMap(),
      messages: new ChangeTrackingMap(),
    };
  if (options.keepsLegacyContent ?? true) return initial;
  const columns = new LegacyMessageColumns();
  return { ...initial, messages: columns, mailboxColumns: columns };
};

/**
 * The maps the fold updates in place track their changes when `tracked`, so a view store writes
 * only those rows; views kept only in memory write none, and keep plain maps. Views read once keep
 * no legacy content, and their legacy mailbox as columns (legacy-message-columns.ts).
 */
export const initialTeamProjection = (lead: SessionId, options: TeamProjectionOptions = {}): TeamProjection => {
  const scope = scopeOfSessionId(lead);
  return {
    state: initialState(lead, options),
    ...(scope === undefined ? {} : { scope }),
    records: [],
    mismatches: [],
    ...((options.keepsLegacyContent ?? true) ? {} : { dropsLegacyContent: true as const }),
    ...(options.recordFactsFor === undefined ? {} : { recordFactsFor: options.recordFactsFor }),
  };
};

/*
 * A Team record its codec accepted (`catalog`, the verdict the event already carries) is read as it
 * is, not checked again; only a refused one has its head checked, for the foreign-team rule.
 */

/** The version of a refused record whose head names the own team; a foreign or headless one has none. */
const refusedOwnVersion = (team: TeamState, event: SessionEvent): number | undefined => {
  if (isTeamRecordEvent(event)) return undefined;
  const { data } = event;
  return TeamRecordHead.is(data) && data.teamId === team.teamId ? data.version : undefined;
};

/** The target a queued message names, read from the columns when the mailbox keeps them (no entry made). */
const queuedTargetOf = (team: TeamAccumulator, messageId: MessageId): SessionId | undefined => {
  const columns = team.mailboxColumns;
  if (columns === undefined) return team.messages.get(messageId)?.message.targetId;
  const index = columns.indexOf(messageId);
  return index === -1 ? undefined : columns.targetAt(index);
};

const deliveryMismatch = (team: TeamAccumulator, event: SessionEvent): DeliveryMismatch | undefined => {
  if (!event.catalog || event.type !== 'team/message/delivered') return undefined;
  const { messageId, targetId: deliveredTargetId } = event.data;
  const queuedTargetId = queuedTargetOf(team, messageId);
  return queuedTargetId === undefined || queuedTargetId === deliveredTargetId
    ? undefined
    : { messageId, seq: event.seq, queuedTargetId, deliveredTargetId };
};

const noContent: readonly never[] = Object.freeze([]);

/**
 * The record type as the program's own string: a fact is kept per Team record until its row is
 * written, and the type read from each line is a copy of its own.
 */
const sharedRecordType = (type: TeamRecordType): TeamRecordType => {
  switch (type) {
    case 'team/member':
      return 'team/member';
    case 'team/task':
      return 'team/task';
    case 'team/message/queued':
      return 'team/message/queued';
    case 'team/message/delivered':
      return 'team/message/delivered';
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
};

/**
 * The message a queued record just added keeps no content: the Team fold holds its own copy of the
 * snapshot (`accumulateTeam`), so emptying it touches nothing the event shares.
 */
const dropQueuedContent = (state: TeamAccumulator, event: SessionEvent): void => {
  // Columns keep no content at all.
  if (state.mailboxColumns !== undefined || !event.catalog || event.type !== 'team/message/queued') return;
  const entry = state.messages.get(event.data.message.id);
  if (entry?.queuedSeq === event.seq) (entry.message as { content: readonly unknown[] }).content = noContent;
};

/**
 * Fold one event of a Lead stream. `accumulateTeam` applies the Team rules of docs/rules.md (own team only, first
 * violation is the failure, later records ignored); this adds the record facts and mismatches.
 * Linear like `accumulateTeam`: the arrays of the given projection are extended in place.
 */
export const evolveTeamProjection = (team: TeamProjection, read: SessionEvent): TeamProjection => {
  if (!isTeamRecordType(read.type) || team.state.failure !== undefined) return team;
  const event = team.scope === undefined ? read : scopedTeamRecord(read, team.scope);
  // The record's team is checked once here: an own accepted record is applied without asking again.
  const own = isOwnTeamRecord(team.state, event);
  const version = own ? event.data.version : refusedOwnVersion(team.state, event);
  if (
    version !== undefined &&
    (team.recordFactsFor === undefined || mayBreakRecordEra(version, event, team.recordFactsFor))
  )
    team.records.push({
      seq: event.seq,
      type: sharedRecordType(read.type),
      version,
      time: event.time,
      normalised: event.normalised,
    });
  const state = own ? accumulateOwnTeamRecord(team.state, event) : accumulateTeam(team.state, event);
  // A delivery to another target than the queued one fails the team (docs/rules.md#team-records), so
  // only a delivery that failed it is looked up again: the others pay one lookup of their message, not two.
  const mismatch =
    own && state.failure !== undefined && event.type === 'team/message/delivered'
      ? deliveryMismatch(state, event)
      : undefined;
  if (mismatch !== undefined) team.mismatches.push(mismatch);
  if (team.dropsLegacyContent === true) dropQueuedContent(state, event);
  // The Team fold updates its state in place: a record that changes no other field copies nothing.
  return state === team.state ? team : { ...team, state };
};
