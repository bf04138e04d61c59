import fc from 'fast-check';
import { isCatalogPayload } from '@teamlog/events';
import {
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  HeadsOnlyEventStore,
  InMemoryEventStore,
  type StreamName,
} from '@teamlog/store';
import {
  type EraRules,
  LegacyMessageColumns,
  TeamlogProjections,
  type TeamlogViews,
  referenceEraRules,
} from '@teamlog/projections';
import { importFixtures, realFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { appendHistoryStep, historyArbitrary } from '@teamlog/test-support/generated-history';
import { appendSession, delivered, member, queued, sid } from '@teamlog/test-support/session-log-builder';

/*
 * The views of a one-shot replay keep only what `replay()` reads (docs/projections.md): the
 * document they give must be the one views that keep everything give.
 */

/**
 * The store of a one-shot replay as the importer feeds it: each event carries the writer's verdict
 * on its payload, and the views fold the objects the store hands on, nothing kept.
 */
class VerdictHeadsOnlyStore extends HeadsOnlyEventStore {
  override appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const checked = events.map((event) =>
      isCatalogPayload(event.type, event.data) ? { ...event, catalog: true } : event,
    );
    return super.appendToStream(stream, checked, options);
  }
}

const both = async (
  feed: (store: EventStore) => Promise<unknown>,
  eraRules: EraRules = referenceEraRules,
  oneShotStore: () => EventStore = () => new InMemoryEventStore(),
): Promise<{ readonly once: TeamlogViews; readonly kept: TeamlogViews }> => {
  const views = async (oneShot: boolean) => {
    const store = oneShot ? oneShotStore() : new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store, { oneShot, eraRules });
    const detach = projections.foldInline();
    await feed(store);
    detach?.();
    return projections.views();
  };
  return { once: await views(true), kept: await views(false) };
};

describe('the views of a one-shot replay', () => {
  it('over generated histories: give the replay view that views keeping everything give', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        const { once, kept } = await both(async (store) => {
          for (const step of history) await appendHistoryStep(store, step);
        });
        expect(once.replay()).toEqual(kept.replay());
      }),
      { numRuns: 60, seed: 20261202 },
    );
  }, 120_000);

  it("over generated histories in the store of a one-shot replay, with the writer's verdicts: give the replay view that views keeping everything give", async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        const { once, kept } = await both(
          async (store) => {
            for (const step of history) await appendHistoryStep(store, step);
          },
          referenceEraRules,
          () => new VerdictHeadsOnlyStore(),
        );
        expect(once.replay()).toEqual(kept.replay());
      }),
      { numRuns: 60, seed: 20261205 },
    );
  }, 120_000);

  it.each([
    ['synthetic', syntheticFixtures],
    ['real', realFixtures],
  ])('over the %s fixtures: give the replay view that views keeping everything give', async (_name, root) => {
    const { once, kept } = await both((store) => importFixtures(store, root));
    expect(once.replay()).toEqual(kept.replay());
  });

  it.each([
    ['synthetic', syntheticFixtures],
    ['real', realFixtures],
  ])(
    'over the %s fixtures imported into the store of a one-shot replay: give the replay view that views keeping everything give',
    async (_name, root) => {
      const { once, kept } = await both(
        (store) => importFixtures(store, root),
        referenceEraRules,
        () => new HeadsOnlyEventStore(),
      );
      expect(once.replay()).toEqual(kept.replay());
    },
    120_000,
  );

  it('keep the fact of a Team record only where the era audit could find against it', async () => {
    const end = referenceEraRules.mailboxEraEnd;
    const records = [
      member(1, 'lead-1', 'a', 'alpha', 'provisioning'),
      member(2, 'lead-1', 'a', 'alpha', 'active'),
      queued(1, 'lead-1', 'm-1', 'lead-1', 'lead', 'a'),
    ];
    const { once, kept } = await both((store) => appendSession(store, 'lead-1', records, { startTime: end - 1500 }));
    const facts = (views: TeamlogViews) =>
      views.state.teams.get(sid('lead-1'))?.records.map(({ seq, version }) => [seq, version]);
    // seq 0 is version 1 before the era's end; seq 1 is version 2; seq 2 is queued after the end.
    expect(facts(kept)).toEqual([
      [0, 1],
      [1, 2],
      [2, 1],
    ]);
    expect(facts(once)).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(once.replay().audit).toEqual(kept.replay().audit);
    expect(kept.replay().audit.map(({ code, seq }) => [code, seq])).toEqual([['team-record-outside-era', 2]]);
  });

  const roster = [
    member(2, 'lead-1', 'a', 'alpha', 'provisioning'),
    member(2, 'lead-1', 'a', 'alpha', 'active'),
    member(2, 'lead-1', 'b', 'beta', 'provisioning'),
    member(2, 'lead-1', 'b', 'beta', 'active'),
  ];

  it('keep the legacy mailbox as columns, and read it as the kept views hold it (without content)', async () => {
    const records = [...roster, queued(1, 'lead-1', 'm-1', 'lead-1', 'lead', 'a'), delivered(1, 'lead-1', 'm-1', 'a')];
    const { once, kept } = await both((store) => appendSession(store, 'lead-1', records));
    const mailbox = (views: TeamlogViews) => views.state.teams.get(sid('lead-1'))?.state.messages;
    expect(mailbox(once)).toBeInstanceOf(LegacyMessageColumns);
    expect(mailbox(kept)).not.toBeInstanceOf(LegacyMessageColumns);
    const withoutContent = [...(mailbox(kept)?.values() ?? [])].map((entry) => ({
      ...entry,
      message: { ...entry.message, content: [] },
    }));
    expect([...(mailbox(once)?.values() ?? [])]).toEqual(withoutContent);
    expect(once.replay()).toEqual(kept.replay());
  });

  it.each([
    [
      'queued twice',
      [queued(2, 'lead-1', 'm-1', 'lead-1', 'lead', 'a'), queued(2, 'lead-1', 'm-1', 'lead-1', 'lead', 'b')],
      'message "m-1" queued twice',
    ],
    ['delivered before queueing', [delivered(2, 'lead-1', 'm-1', 'a')], 'message "m-1" delivered before queueing'],
    [
      'delivered to another target',
      [queued(2, 'lead-1', 'm-1', 'lead-1', 'lead', 'a'), delivered(2, 'lead-1', 'm-1', 'b')],
      'message "m-1" target changed from "a" to "b"',
    ],
    [
      'delivered twice',
      [
        queued(2, 'lead-1', 'm-1', 'lead-1', 'lead', 'a'),
        delivered(2, 'lead-1', 'm-1', 'a'),
        delivered(2, 'lead-1', 'm-1', 'a'),
      ],
      'message "m-1" delivered twice',
    ],
  ])(
    'fail a team whose mailbox record is %s as the kept views do, with the same text',
    async (_name, mailbox, reason) => {
      const { once, kept } = await both((store) => appendSession(store, 'lead-1', [...roster, ...mailbox]));
      expect(once.replay().teams[0]?.failure?.reason).toBe(reason);
      expect(once.replay()).toEqual(kept.replay());
    },
    120_000,
  );
});
