import * as t from 'io-ts';
import { CloseReason, type SessionId, SessionRole, TeamId } from '@teamlog/events';
import {
  type SessionLifecycle,
  accumulateLifecycle,
  evolveLifecycle,
  initialSessionLifecycle,
  lifecycleEventTypes,
  lifecycleHasBegun,
} from '@teamlog/domain';
import { AcceptanceProblem } from './acceptance-problem';
import type { SessionEvent } from './session-event';

/** What a view needs from a session's header (stream `sessionheader-<id>`). */
export const SessionHeaderFacts = t.intersection(
  [
    t.type({ formatVersion: t.number }),
    t.partial({ file: t.string, scope: t.string, normalised: t.boolean, seedLength: t.number, createdAt: t.number }),
  ],
  'SessionHeaderFacts',
);
export type SessionHeaderFacts = t.TypeOf<typeof SessionHeaderFacts>;

/** An event the views could not use; the audit reports it (`undecodable-event`). */
export const EventProblem = t.type({ seq: t.number, type: t.string, detail: t.string }, 'EventProblem');
export type EventProblem = t.TypeOf<typeof EventProblem>;

export const SessionLifecycleDoc: t.Type<SessionLifecycle, unknown, unknown> = t.intersection(
  [
    t.type({
      status: t.keyof({ 'not-started': null, idle: null, running: null, inactive: null, closed: null }),
      native: t.boolean,
      turn: t.number,
    }),
    t.partial({ closeReason: CloseReason, role: SessionRole, teamId: TeamId, name: t.string, step: t.number }),
  ],
  'SessionLifecycle',
) as unknown as t.Type<SessionLifecycle, unknown, unknown>;

/** A follower found the file this session was imported from rejected whole (`teamlog/import/revoked`). */
export const RevokedFacts = t.intersection(
  [t.type({ file: t.string, reason: t.string, message: t.string, seq: t.number }), t.partial({ line: t.number })],
  'RevokedFacts',
);
export type RevokedFacts = t.TypeOf<typeof RevokedFacts>;

/** A later generation of the session's log superseded the import of an earlier one (`teamlog/import/superseded`). */
export const SupersededFacts = t.type({ file: t.string, by: t.string, base: t.number }, 'SupersededFacts');
export type SupersededFacts = t.TypeOf<typeof SupersededFacts>;

/** One session as the views know it; persisted as one document per session. */
export const SessionFacts = t.intersection(
  [
    t.type({
      id: t.string,
      lifecycle: SessionLifecycleDoc,
      eventCount: t.number,
      problems: t.array(EventProblem),
    }),
    t.partial({
      header: SessionHeaderFacts,
      /** The seq of the last `session/end-seed` with `inherited: true` (V2+ fork cut). */
      inheritedEndSeedSeq: t.number,
      lastTime: t.number,
      /** The readable team name a Lead's `teamlog/session/created` gives. */
      teamName: t.string,
      /** The checks acceptances into this session failed (acceptance-checks.ts); absent when none did. */
      acceptanceProblems: t.array(AcceptanceProblem),
      /** Set by `teamlog/import/revoked`: the reads treat the session as absent (visible-state.ts). */
      revoked: RevokedFacts,
      /**
       * Set by `teamlog/import/superseded`: the facts, Team and inbox are folded from that record on,
       * and an event's seq is its revision minus `base` (docs/rules.md#import-superseded).
       */
      superseded: SupersededFacts,
    }),
  ],
  'SessionFacts',
);
export type SessionFacts = t.TypeOf<typeof SessionFacts> & { readonly id: SessionId };

export const initialSessionFacts = (id: SessionId): SessionFacts => ({
  id,
  lifecycle: initialSessionLifecycle,
  eventCount: 0,
  problems: [],
});

const isInheritedEndSeed = (event: SessionEvent): boolean =>
  event.type === 'session/end-seed' &&
  typeof event.data === 'object' &&
  event.data !== null &&
  (event.data as Record<string, unknown>).inherited === true;

/**
 * Runs for every event of every session, so it allocates nothing: linear like the other folds of
 * the views, it updates the facts it is given (the state owns them) and returns them. Views read
 * once (`readOnce`) update the lifecycle in place too; others keep each lifecycle as it was made,
 * since a kept read (the dashboard's) tells a changed one by its identity.
 */
export const evolveSessionFacts = (
  facts: SessionFacts,
  event: SessionEvent,
  readOnce = false,
  lifecycleType = lifecycleEventTypes.has(event.type),
): SessionFacts => {
  // Most of a log (the conversation) does not move a begun lifecycle: no call for those events.
  if (lifecycleType || !lifecycleHasBegun(facts.lifecycle))
    facts.lifecycle = readOnce ? accumulateLifecycle(facts.lifecycle, event) : evolveLifecycle(facts.lifecycle, event);
  if (event.seq + 1 > facts.eventCount) facts.eventCount = event.seq + 1;
  if (isInheritedEndSeed(event)) facts.inheritedEndSeedSeq = event.seq;
  if (!event.normalised) facts.lastTime = event.time;
  if (event.catalog && event.type === 'teamlog/session/created' && event.data.teamName !== undefined)
    facts.teamName = event.data.teamName;
  return facts;
};

export const withHeader = (facts: SessionFacts, header: SessionHeaderFacts): SessionFacts => ({ ...facts, header });

export const withAcceptanceProblems = (facts: SessionFacts, problems: readonly AcceptanceProblem[]): SessionFacts =>
  problems.length === 0 ? facts : { ...facts, acceptanceProblems: [...(facts.acceptanceProblems ?? []), ...problems] };

/** The facts of a session a later generation supersedes: folded again from nothing, its header kept (the generation's own is stored before the record). */
export const supersededFacts = (facts: SessionFacts, superseded: SupersededFacts): SessionFacts => ({
  ...initialSessionFacts(facts.id),
  ...(facts.header === undefined ? {} : { header: facts.header }),
  superseded,
});

export const withRevoked = (facts: SessionFacts, revoked: RevokedFacts): SessionFacts => ({ ...facts, revoked });

export const withProblem = (facts: SessionFacts, problem: EventProblem): SessionFacts => ({
  ...facts,
  problems: [...facts.problems, problem],
});

/**
 * Events before this seq were inherited from the parent of a fork (docs/rules.md#seeded-fork-cut): the
 * header's `seedLength` in V0/V1, the last `session/end-seed {inherited:true}` from V2 on.
 */
export const inheritedCut = (facts: SessionFacts): number => facts.header?.seedLength ?? facts.inheritedEndSeedSeq ?? 0;

/** Whether the session's own log is in the store (a header alone does not hold any message). */
export const hasLog = (facts: SessionFacts | undefined): boolean => facts !== undefined && facts.eventCount > 0;

export const teamOfNativeSession = (
  facts: SessionFacts,
): { readonly teamId: TeamId; readonly role: SessionRole; readonly name?: string } | undefined =>
  facts.lifecycle.native && facts.lifecycle.teamId !== undefined && facts.lifecycle.role !== undefined
    ? {
        teamId: facts.lifecycle.teamId,
        role: facts.lifecycle.role,
        ...(facts.lifecycle.name === undefined ? {} : { name: facts.lifecycle.name }),
      }
    : undefined;
