import fc from 'fast-check';
import { InMemoryEventStore } from '@teamlog/store';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { KeptAudit, TeamlogProjections, type TeamlogViews, readAudit } from '@teamlog/projections';
import { importFixtures, realFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { appendHistoryStep, historyArbitrary } from '@teamlog/test-support/generated-history';
import { appendHeader, appendSession, ev, member, relayItem, splice } from '@teamlog/test-support/session-log-builder';

const append = appendHistoryStep;

/** The kept audit (views.audit, views.overview) against the one recomputed from the whole state (replay's). */
const expectKeptEqualsWhole = (views: TeamlogViews): void => {
  const whole = views.replay().audit;
  expect(views.audit()).toEqual(whole);
  expect(views.overview().auditFindings).toBe(whole.length);
};

const directTime = Date.UTC(2026, 9, 2);

describe('the kept audit', () => {
  it.each([
    ['synthetic', syntheticFixtures],
    ['real', realFixtures],
  ])('over the %s fixtures folded inline: equals the audit recomputed from the whole views', async (_name, root) => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    const detach = projections.foldInline();
    await importFixtures(store, root);
    detach?.();
    const views = projections.views();
    expectKeptEqualsWhole(views);
  });

  it('over generated histories folded inline, read after every append: equals the audit recomputed from the whole views', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        const store = new InMemoryEventStore();
        const projections = await TeamlogProjections.inMemory(store);
        const detach = projections.foldInline();
        for (const step of history) {
          await append(store, step);
          expectKeptEqualsWhole(projections.views());
        }
        detach?.();
      }),
      { numRuns: 60, seed: 20261202 },
    );
  }, 120_000);

  it('over generated histories folded inline on SQLite, read after every append: equals the audit recomputed from the whole views', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        const store = SqliteEventStore.open(':memory:');
        try {
          const projections = await sqliteProjections(store);
          const detach = projections.foldInline();
          if (detach === undefined) throw new Error('the SQLite store folds inline');
          for (const step of history) {
            await append(store, step);
            expectKeptEqualsWhole(projections.views());
          }
          detach();
        } finally {
          await store.close();
        }
      }),
      { numRuns: 25, seed: 20261207 },
    );
  }, 120_000);

  it('over generated histories caught up in chunks of any size, read between chunks: equals the audit recomputed from the whole views', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.integer({ min: 1, max: 12 }), async (history, chunk) => {
        const store = new InMemoryEventStore();
        const projections = await TeamlogProjections.inMemory(store);
        for (let start = 0; start < history.length; start += chunk) {
          for (const step of history.slice(start, start + chunk)) await append(store, step);
          await projections.catchUp();
          expectKeptEqualsWhole(projections.views());
        }
      }),
      { numRuns: 60, seed: 20261203 },
    );
  }, 120_000);

  it('given a relay from a session outside the team, when the roster later names it, then its finding is withdrawn', async () => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    await appendSession(
      store,
      'lead-1',
      [member(2, 'lead-1', 'b', 'beta', 'provisioning'), splice('next-turn', 0, [relayItem('r1', 'a', 'alpha')])],
      { startTime: directTime },
    );
    await projections.catchUp();
    expect(
      projections
        .views()
        .audit()
        .map((finding) => finding.code),
    ).toEqual(['sender-not-in-team']);
    await appendSession(
      store,
      'lead-1',
      [member(2, 'lead-1', 'a', 'alpha', 'provisioning'), member(2, 'lead-1', 'a', 'alpha', 'active')],
      { startTime: directTime },
    );
    await projections.catchUp();
    expect(projections.views().audit()).toEqual([]);
    expectKeptEqualsWhole(projections.views());
  });

  it('given a session with findings, when its import is revoked and then a later generation supersedes another, then each read equals the whole audit', async () => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    await appendHeader(store, 'lead-1', 4);
    await appendSession(store, 'a', [splice('next-turn', 0, [relayItem('r1', 'b', 'beta')])], {
      startTime: directTime,
    });
    await appendSession(store, 'b', [splice('next-turn', 0, [relayItem('r2', 'c', 'gamma')])], {
      startTime: directTime,
    });
    await projections.catchUp();
    expectKeptEqualsWhole(projections.views());
    await appendSession(store, 'a', [
      ev('teamlog/import/revoked', { file: 'a/session.v4.jsonl', reason: 'damaged-history', message: 'a: torn' }),
    ]);
    await projections.catchUp();
    expectKeptEqualsWhole(projections.views());
    expect(
      projections
        .views()
        .audit()
        .map((finding) => finding.code),
    ).toContain('revoked-session');
    await appendSession(store, 'b', [
      ev('teamlog/import/superseded', { file: 'b/session.v4.jsonl', by: 'b/session.v5.jsonl', formatVersion: 5 }),
    ]);
    await projections.catchUp();
    expectKeptEqualsWhole(projections.views());
  });

  it('given views that did not change since the last read, then it answers the same findings without listing them again', async () => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    await appendSession(store, 'lead-1', [splice('next-turn', 0, [relayItem('r1', 'a', 'alpha')])], {
      startTime: directTime,
    });
    await projections.catchUp();
    const kept = new KeptAudit();
    const state = projections.views().state;
    const first = kept.read(state);
    expect(kept.read(state)).toBe(first);
    expect(first).toEqual(readAudit(state));
  });
});
