import fc from 'fast-check';
import type { EventStore } from '@teamlog/store';
import {
  type LogEvent,
  agentMessageItem,
  appendHeader,
  appendSession,
  claim,
  delivered,
  ev,
  mailboxItem,
  member,
  promptItem,
  queued,
  relayItem,
  splice,
  task,
  turnEnd,
  turnStart,
  userMessage,
} from './session-log-builder';

/*
 * Random histories over a small world (two Leads, three members) so ids collide often: records
 * that pass and records that break the Team rules (docs/rules.md#team-failure-mode), splices and claims, teamlog acceptances,
 * fork markers and headers that arrive before or after their sessions.
 */

const leads = ['lead-1', 'lead-2'] as const;
const members = ['m-a', 'm-b', 'm-c'] as const;
const sessions = [...leads, ...members] as const;
const names = ['alpha', 'beta', 'gamma'] as const;
const messageIds = ['msg-1', 'msg-2', 'msg-3', 'msg-4'] as const;
const lists = ['next-turn', 'next-step'] as const;

const anyOf = <T>(values: readonly T[]) => fc.constantFrom(...values);

/** What was written so far, so most generated records follow the rules and a few (chaos) break them. */
interface WorldSoFar {
  readonly revisions: Map<string, number>;
  readonly phases: Map<string, string>;
  readonly queued: Map<string, { readonly target: string; delivered: boolean }>;
}

type Materialise = (world: WorldSoFar) => LogEvent;

const chaosRoll = fc.nat(15);

const memberRecord = (lead: string): fc.Arbitrary<Materialise> =>
  fc
    .tuple(fc.constantFrom(1, 2), fc.constantFrom(lead, lead, lead, 'lead-other'), fc.nat(2), fc.boolean(), chaosRoll)
    .map(([version, teamId, index, succeeds, chaos]) => (world) => {
      const key = `${lead}/${members[index]}`;
      const prior = world.phases.get(key);
      const phase =
        chaos === 0
          ? 'active'
          : prior === undefined
            ? 'provisioning'
            : prior !== 'provisioning' && chaos > 1
              ? undefined
              : succeeds
                ? 'active'
                : 'failed';
      if (phase === undefined) return turnStart(1);
      if (teamId === lead) world.phases.set(key, phase);
      return member(version, teamId, members[index] as string, names[index] as string, phase);
    });

const taskRecord = (lead: string): fc.Arbitrary<Materialise> =>
  fc
    .tuple(fc.constantFrom(1, 2), fc.integer({ min: 1, max: 3 }), fc.nat(7), fc.nat(4), chaosRoll, fc.nat(2))
    .map(([version, n, mask, deleteRoll, chaos, owner]) => (world) => {
      const id = `task-${n}`;
      const key = `${lead}/${id}`;
      const revision = (world.revisions.get(key) ?? 0) + (chaos === 0 ? 2 : 1);
      // Blockers among the tasks written so far, so most graphs stay valid long enough to matter.
      const known = ['task-1', 'task-2', 'task-3'].filter(
        (other) => other !== id && world.revisions.has(`${lead}/${other}`),
      );
      const blockedBy = [...known.filter((_, bit) => (mask >> bit) % 2 === 1), ...(chaos === 1 ? [id] : [])];
      world.revisions.set(key, revision);
      return task(version, lead, id, revision, {
        blockedBy,
        ownerId: members[owner],
        ...(deleteRoll === 0 ? { status: 'deleted' } : {}),
      });
    });

const mailboxRecord = (lead: string): fc.Arbitrary<Materialise> =>
  fc
    .tuple(fc.constantFrom(1, 2) as fc.Arbitrary<1 | 2>, anyOf(messageIds), anyOf(members), fc.boolean(), chaosRoll)
    .map(([version, id, target, deliver, chaos]) => (world) => {
      const key = `${lead}/${id}`;
      const prior = world.queued.get(key);
      if (prior === undefined || chaos === 0) {
        if (prior === undefined) world.queued.set(key, { target, delivered: false });
        return queued(version, lead, id, lead, 'lead', target);
      }
      if (!deliver || (prior.delivered && chaos > 1)) return turnEnd(1);
      prior.delivered = true;
      return delivered(version, lead, id, chaos === 1 ? target : prior.target);
    });

const teamRecord = (lead: string): fc.Arbitrary<Materialise> =>
  fc.oneof(memberRecord(lead), taskRecord(lead), taskRecord(lead), mailboxRecord(lead));

const fixed = (arbitrary: fc.Arbitrary<LogEvent>): fc.Arbitrary<Materialise> => arbitrary.map((event) => () => event);

const inboxEvent = (lead: string): fc.Arbitrary<LogEvent> =>
  fc.oneof(
    fc
      .tuple(anyOf(lists), fc.nat(3), anyOf(messageIds), anyOf(sessions), anyOf(['lead', ...names]))
      .map(([list, start, id, sender, name]) => splice(list, start, [relayItem(`${id}-r`, sender, name)])),
    fc
      .tuple(anyOf(lists), fc.nat(3), anyOf(messageIds), fc.nat(5))
      .map(([list, start, id, item]) => splice(list, start, [mailboxItem(lead, id, lead, 'lead', `item-${item}`)])),
    fc
      .tuple(anyOf(lists), fc.nat(2), fc.nat(99))
      .map(([list, start, n]) =>
        splice(list, start, [promptItem(`prompt-${n}`), agentMessageItem(`agent-${n}`, lead)]),
      ),
    fc
      .tuple(anyOf(lists), fc.integer({ min: 1, max: 3 }), fc.boolean())
      .map(([list, count, canceled]) => claim(list, count, canceled ? { outcome: 'canceled' } : {})),
    fc
      .tuple(anyOf(messageIds), fc.nat(5))
      .map(([id, item]) => userMessage(mailboxItem(lead, id, lead, 'lead', `item-${item}`))),
    fc
      .tuple(anyOf(lists), anyOf(messageIds))
      .map(([list, id]) =>
        ev('teamlog/inbox/accepted', { teamId: lead, list, message: relayItem(`${id}-t`, lead, 'lead') }),
      ),
    fc
      .tuple(anyOf(lists), fc.subarray(messageIds.map((id) => `${id}-t`)))
      .map(([list, ids]) => ev('teamlog/inbox/claimed', { list, messageIds: ids, turn: 1 })),
    fc
      .tuple(anyOf(lists), fc.subarray(messageIds.map((id) => `${id}-t`)))
      .map(([list, ids]) => ev('teamlog/inbox/canceled', { list, messageIds: ids, reason: 'aborted' })),
  );

const lifecycleEvent: fc.Arbitrary<LogEvent> = fc.oneof(
  fc.nat(3).map((turn) => turnStart(turn)),
  fc.nat(3).map((turn) => turnEnd(turn)),
  fc.boolean().map((inherited) => ev('session/end-seed', inherited ? { inherited: true } : {})),
);

const sessionEvent = (session: string): fc.Arbitrary<Materialise> => {
  const lead = (leads as readonly string[]).includes(session) ? session : 'lead-1';
  const teamWeight = lead === session ? 5 : 1;
  return fc.oneof(
    { weight: teamWeight, arbitrary: teamRecord(lead) },
    { weight: 4, arbitrary: fixed(inboxEvent(lead)) },
    { weight: 1, arbitrary: fixed(lifecycleEvent) },
  );
};

/** Lead streams get more events: their Team records need depth to reach interesting states. */
const sessionArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.constant('lead-1') },
  { weight: 1, arbitrary: anyOf(sessions) },
);

/** One append: an event of a session, or a session's header. */
export type HistoryStep =
  | { readonly kind: 'event'; readonly session: string; readonly event: LogEvent }
  | { readonly kind: 'header'; readonly session: string; readonly formatVersion: number; readonly seedLength?: number };

export const historyArbitrary: fc.Arbitrary<HistoryStep[]> = fc
  .tuple(
    fc.array(
      sessionArbitrary.chain((session) => sessionEvent(session).map((materialise) => ({ session, materialise }))),
      { maxLength: 80, size: 'max' },
    ),
    fc.array(fc.tuple(anyOf(sessions), fc.nat({ max: 4 }), fc.option(fc.nat(4), { nil: undefined }), fc.nat(80)), {
      maxLength: 5,
    }),
  )
  .map(([intents, headers]) => {
    const world: WorldSoFar = { revisions: new Map(), phases: new Map(), queued: new Map() };
    const steps: HistoryStep[] = intents.map(({ session, materialise }) => ({
      kind: 'event',
      session,
      event: materialise(world),
    }));
    const seen = new Set<string>();
    for (const [session, formatVersion, seedLength, at] of headers) {
      if (seen.has(session)) continue; // one header per session
      seen.add(session);
      steps.splice(Math.min(at, steps.length), 0, {
        kind: 'header',
        session,
        formatVersion,
        ...(seedLength === undefined ? {} : { seedLength }),
      });
    }
    return steps;
  });

/** Append one step of a generated history to a store, as a harness would have written it. */
export const appendHistoryStep = async (store: EventStore, step: HistoryStep): Promise<void> => {
  if (step.kind === 'header') {
    await appendHeader(
      store,
      step.session,
      step.formatVersion,
      step.seedLength === undefined ? {} : { header: { seedLength: step.seedLength } },
    );
  } else {
    await appendSession(store, step.session, [step.event]);
  }
};
