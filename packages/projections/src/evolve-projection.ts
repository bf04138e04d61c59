import { lifecycleEventTypes } from '@teamlog/domain';
import { isLeft } from 'fp-ts/Either';
import {
  ImportRevoked,
  ImportSuperseded,
  SessionHeaderRecord,
  type SessionId,
  decodeWith,
  isCatalogEventType,
  isCatalogPayload,
  isStoredEventMetadata,
  isTeamRecordType,
  streamEvent,
} from '@teamlog/events';
import { type RecordedEvent, sessionIdOfHeaderStream, sessionIdOfStream } from '@teamlog/store';
import { acceptanceProblems } from './acceptance-checks';
import { catalogPayloadError } from './catalog-payload-check';
import { isLegacyUserMessage, upgradeLegacyUserMessage } from './legacy-user-message';
import { type InboxSessionEvent, evolveSessionInbox, inboxEventTypes, isInboxEvent } from './inbox-projection';
import { type ProjectionState, inboxOf } from './projection-state';
import type { SessionEvent } from './session-event';
import {
  type SessionFacts,
  type SessionHeaderFacts,
  evolveSessionFacts,
  initialSessionFacts,
  supersededFacts,
  withAcceptanceProblems,
  withHeader,
  withProblem,
  withRevoked,
} from './session-facts';
import { scopeOfSessionId } from './session-scope';
import { evolveTeamProjection, initialTeamProjection } from './team-projection';

const decodeHeaderRecord = decodeWith(SessionHeaderRecord, 'data');

const factsOf = (state: ProjectionState, id: SessionId): SessionFacts =>
  state.sessions.get(id) ?? initialSessionFacts(id);

const setFacts = (state: ProjectionState, facts: SessionFacts): void => {
  state.sessions.set(facts.id, facts);
  state.changes.sessions.add(facts.id);
};

const numberField = (object: Record<string, unknown>, key: string): number | undefined =>
  typeof object[key] === 'number' ? (object[key] as number) : undefined;

const evolveHeader = (state: ProjectionState, id: SessionId, event: RecordedEvent): void => {
  if (event.type !== 'teamlog/session/header') return;
  const decoded = decodeHeaderRecord(event.data);
  if (isLeft(decoded)) {
    setFacts(state, withProblem(factsOf(state, id), { seq: -1, type: event.type, detail: decoded.left.message }));
    return;
  }
  const record = decoded.right;
  const seedLength = numberField(record.header, 'seedLength');
  const createdAt = numberField(record.header, 'createdAt');
  const header: SessionHeaderFacts = {
    formatVersion: record.formatVersion,
    ...(record.file === undefined ? {} : { file: record.file }),
    ...(record.scope === undefined ? {} : { scope: record.scope }),
    ...(record.normalised === undefined ? {} : { normalised: record.normalised }),
    ...(seedLength === undefined ? {} : { seedLength }),
    ...(createdAt === undefined ? {} : { createdAt }),
  };
  setFacts(state, withHeader(factsOf(state, id), header));
};

const evolveTeamOf = (state: ProjectionState, event: SessionEvent): void => {
  if (!isTeamRecordType(event.type)) return;
  const held = state.teams.get(event.sessionId);
  const team =
    held ??
    initialTeamProjection(event.sessionId, {
      tracked: state.tracksTeamChanges,
      keepsLegacyContent: state.keepsLegacyContent,
      ...(state.recordFactsFor === undefined ? {} : { recordFactsFor: state.recordFactsFor }),
    });
  if (!state.changes.teams.has(event.sessionId)) {
    state.changes.teams.add(event.sessionId);
    state.changes.teamFactsCommitted.set(event.sessionId, {
      records: team.records.length,
      mismatches: team.mismatches.length,
    });
  }
  const next = evolveTeamProjection(team, event);
  // The fold updates the Team in place: most records leave the same object, and the map is not re-keyed.
  if (next !== held) state.teams.set(event.sessionId, next);
};

const evolveInboxOf = (state: ProjectionState, event: InboxSessionEvent): void => {
  const inbox = inboxOf(state, event.sessionId);
  const tracked = state.recordsInboxChanges;
  const change = evolveSessionInbox(inbox, event, scopeOfSessionId(event.sessionId), tracked);
  if (!tracked) return;
  const entries = state.changes.inboxEntries.get(event.sessionId) ?? new Set<number>();
  for (const index of change.entries) entries.add(index);
  state.changes.inboxEntries.set(event.sessionId, entries);
  state.changes.inboxLists.add(event.sessionId);
  for (const [messageId, seq] of change.held) state.changes.held.push({ sessionId: event.sessionId, messageId, seq });
};

/** Only an event its codec accepted is folded into an inbox; one it refuses is reported. */
const foldInbox = (state: ProjectionState, event: SessionEvent, facts: SessionFacts): SessionFacts => {
  if (isInboxEvent(event)) {
    evolveInboxOf(state, event);
    return facts;
  }
  if (!inboxEventTypes.has(event.type) || !isCatalogEventType(event.type)) return facts;
  if (isLegacyUserMessage(event.type, event.data)) {
    const upgraded = upgradeLegacyUserMessage(event.data, event.seq);
    const current: SessionEvent | undefined =
      upgraded === undefined ? undefined : { ...event, ...streamEvent(event.type, event.seq, upgraded) };
    if (current !== undefined && isInboxEvent(current)) evolveInboxOf(state, current);
    return facts;
  }
  const refused = catalogPayloadError(event.type, event.data);
  return refused === undefined
    ? facts
    : withProblem(facts, { seq: event.seq, type: event.type, detail: refused.message });
};

/** A SessionEvent's fields, writable: the one a fold of views read once fills for each event (see sessionEventOf). */
interface EventSlot {
  catalog: boolean;
  type: string;
  seq: number;
  data: unknown;
  sessionId: SessionId;
  time: number;
  normalised: boolean;
}

/**
 * The event views read once fold, filled again for each event: nothing their folds call keeps the
 * event it is given (they keep its fields, or copies), and a fold runs to its end before the next
 * event, so the one-shot replay makes no SessionEvent per event. Views a reader keeps get a new one.
 */
const slot: EventSlot = {
  catalog: false,
  type: '',
  seq: 0,
  data: undefined,
  sessionId: '' as SessionId,
  time: 0,
  normalised: false,
};

/**
 * The event as the views fold it, in one object (this runs for every event): the codec's verdict
 * (the writer's, when the store handed it on with the event: `RecordedEvent.catalog`; else checked
 * here), and the time from the stored metadata (see event-clock.ts), else when the store recorded it.
 */
const sessionEventOf = (
  sessionId: SessionId,
  recorded: RecordedEvent,
  type: string,
  base: number,
  readOnce: boolean,
): SessionEvent => {
  const { data } = recorded;
  const catalog = recorded.catalog === true || isCatalogPayload(type, data);
  const seq = (recorded.revisionNumber ?? Number(recorded.revision)) - base;
  // The metadata's time where the event holds it without making the metadata (a one-shot replay's events).
  let time = recorded.metadataTime;
  let normalised = recorded.metadataNormalised === true;
  if (time === undefined) {
    const { metadata } = recorded;
    const timed = isStoredEventMetadata(metadata);
    time = timed ? metadata.time : recorded.recordedAt.getTime();
    normalised = timed && metadata.normalised === true;
  }
  // Either way the object is a StreamEvent by construction: `catalog` is the codec's own verdict on `data`.
  if (!readOnce) return { catalog, type, seq, data, sessionId, time, normalised } as SessionEvent;
  slot.catalog = catalog;
  slot.type = type;
  slot.seq = seq;
  slot.data = data;
  slot.sessionId = sessionId;
  slot.time = time;
  slot.normalised = normalised;
  return slot as SessionEvent;
};

/** An acceptance teamlog wrote is checked before it is folded, against the views as they stand (acceptance-checks.ts). */
const checkAcceptance = (
  state: ProjectionState,
  event: SessionEvent,
  recorded: RecordedEvent,
  facts: SessionFacts,
): SessionFacts =>
  // The metadata is read only here: a one-shot replay's event makes it when asked (dsh one-shot-event.ts).
  event.catalog && event.type === 'teamlog/inbox/accepted'
    ? withAcceptanceProblems(facts, acceptanceProblems(state, event, recorded.metadata))
    : facts;

const decodeRevoked = decodeWith(ImportRevoked, 'data');

/**
 * A follower's late verdict on the session's file: the facts keep it, and every read leaves the
 * session out as a one-shot replay leaves out a rejected file (docs/rules.md#import-revoked).
 */
const evolveRevoked = (state: ProjectionState, id: SessionId, recorded: RecordedEvent): void => {
  const decoded = decodeRevoked(recorded.data);
  const seq = Number(recorded.revision) - (factsOf(state, id).superseded?.base ?? 0);
  if (isLeft(decoded)) {
    setFacts(state, withProblem(factsOf(state, id), { seq, type: recorded.type, detail: decoded.left.message }));
    return;
  }
  const { file, reason, message, line } = decoded.right;
  setFacts(
    state,
    withRevoked(factsOf(state, id), { file, reason, message, seq, ...(line === undefined ? {} : { line }) }),
  );
};

const decodeSuperseded = decodeWith(ImportSuperseded, 'data');

/** Forget what the batch changed in a session's inbox and held ids: its rows are dropped and written again. */
const dropInboxChanges = (state: ProjectionState, id: SessionId): void => {
  const { held } = state.changes;
  let kept = 0;
  for (const change of held) if (change.sessionId !== id) held[kept++] = change;
  held.length = kept;
  state.changes.inboxEntries.delete(id);
  state.changes.inboxLists.delete(id);
};

/**
 * A later generation of the session's log supersedes the import of an earlier one
 * (docs/rules.md#import-superseded): the session's facts, Team and inbox start again from
 * nothing, and the events after the record are folded with seqs counted from it, as a one-shot
 * replay of the later generation folds them. The commit drops every row of the session (a later
 * generation with fewer members, tasks or messages leaves none of the earlier one's behind) and
 * writes what the folds hold after the record.
 */
const evolveSuperseded = (state: ProjectionState, id: SessionId, recorded: RecordedEvent): void => {
  const decoded = decodeSuperseded(recorded.data);
  const facts = factsOf(state, id);
  if (isLeft(decoded)) {
    const seq = Number(recorded.revision) - (facts.superseded?.base ?? 0);
    setFacts(state, withProblem(facts, { seq, type: recorded.type, detail: decoded.left.message }));
    return;
  }
  const { file, by } = decoded.right;
  setFacts(state, supersededFacts(facts, { file, by, base: Number(recorded.revision) + 1 }));
  state.changes.resets.add(id);
  if (state.teams.delete(id)) state.changes.teams.add(id);
  state.changes.teamFactsCommitted.set(id, { records: 0, mismatches: 0 });
  (state.inboxes.get(id)?.held ?? state.heldMessagesOf(id)).forget();
  state.inboxes.delete(id);
  dropInboxChanges(state, id);
};

/** Which folds beside the session's facts read an event of a type (an acceptance is an inbox event). */
interface TypeRoute {
  /** The type, interned (see `internedType`). */
  readonly type: string;
  readonly team: boolean;
  readonly inbox: boolean;
  /** Whether it may move a begun lifecycle (session-facts.ts). */
  readonly lifecycle: boolean;
}

/** Routes of the types seen: a log has a few dozen; past this (crafted input), a route is made each time. */
const routes = new Map<string, TypeRoute>();
const maxRoutes = 256;

/**
 * The type as an interned string, the one a property key of that name is. A type read from a line
 * is a string of its own (JSON.parse interns only short values), so every map lookup and `===` of
 * the folds compared its characters; the interned copy the route holds is compared by identity.
 */
const internedType = (type: string): string => Object.keys({ [type]: true })[0] ?? type;

/** One lookup per event, in place of each fold asking whether it reads the type. */
const routeOf = (type: string): TypeRoute => {
  const known = routes.get(type);
  if (known !== undefined) return known;
  const route = {
    type: internedType(type),
    team: isTeamRecordType(type),
    inbox: inboxEventTypes.has(type),
    lifecycle: lifecycleEventTypes.has(type),
  };
  // Keyed by the interned copy: a type the reader hands on interned finds it by identity.
  if (routes.size < maxRoutes) routes.set(route.type, route);
  return route;
};

/**
 * Fold one event of session `id`'s stream, given the facts the state holds for it (`stored`:
 * `state.sessions.get(id)`, undefined when none), and return the facts it holds after the event:
 * the batch fold looks a session's facts up once per run of its stream's events (chunk-run-fold.ts).
 */
export const evolveSessionEvent = (
  state: ProjectionState,
  id: SessionId,
  recorded: RecordedEvent,
  stored: SessionFacts | undefined,
): SessionFacts | undefined => {
  if (recorded.type === 'teamlog/import/revoked') {
    evolveRevoked(state, id, recorded);
    return state.sessions.get(id);
  }
  if (recorded.type === 'teamlog/import/superseded') {
    evolveSuperseded(state, id, recorded);
    return state.sessions.get(id);
  }
  const held = stored ?? initialSessionFacts(id);
  const route = routeOf(recorded.type);
  const event = sessionEventOf(id, recorded, route.type, held.superseded?.base ?? 0, state.readOnce);
  const checked = route.inbox ? checkAcceptance(state, event, recorded, held) : held;
  const facts = evolveSessionFacts(checked, event, state.readOnce, route.lifecycle);
  if (route.team) evolveTeamOf(state, event);
  const next = route.inbox ? foldInbox(state, event, facts) : facts;
  // The facts change in place (evolveSessionFacts): most events leave the stored object, not set again,
  // and views no store writes record no change for them (ProjectionState.recordsSessionChanges).
  if (next !== stored) state.sessions.set(id, next);
  else if (!state.recordsSessionChanges) return next;
  state.changes.sessions.add(id);
  return next;
};

/**
 * The session of the last session stream seen, kept: the views get a stream's events in runs, and
 * one id string for the run (not a new slice per event) is hashed once by the maps it keys. A memo
 * of `sessionIdOfStream`, so the fold stays a function of its inputs.
 */
const lastSession: { stream: string | undefined; session: SessionId | undefined } = {
  stream: undefined,
  session: undefined,
};

const sessionOfStream = (stream: RecordedEvent['streamName']): SessionId | undefined => {
  if (stream !== lastSession.stream) {
    lastSession.session = sessionIdOfStream(stream);
    lastSession.stream = stream;
  }
  return lastSession.session;
};

/** Fold one event of `$all` into the views; streams other than sessions and headers are skipped. */
export const evolveProjection = (state: ProjectionState, event: RecordedEvent): ProjectionState => {
  const header = sessionIdOfHeaderStream(event.streamName);
  if (header !== undefined) {
    evolveHeader(state, header, event);
    return state;
  }
  const session = sessionOfStream(event.streamName);
  if (session !== undefined) evolveSessionEvent(state, session, event, state.sessions.get(session));
  return state;
};
