import fc from 'fast-check';
import { InMemoryEventStore } from '@teamlog/store';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import { type HistoryStep, appendHistoryStep, historyArbitrary } from '@teamlog/test-support/generated-history';
import { appendHeader, appendSession, sid } from '@teamlog/test-support/session-log-builder';
import { tempFile } from './temp-file';

const append = appendHistoryStep;

// The audit twice: the kept one (audit, overview) and the one replay recomputes from the whole views.
const everything = (views: TeamlogViews) => ({
  replay: views.replay(),
  statistics: views.statistics(),
  audit: views.audit(),
  overview: views.overview(),
});

/** Segments of a history between cut points, each appended by a fresh runner folding inline. */
const segmentsOf = (history: readonly HistoryStep[], cuts: readonly number[]): HistoryStep[][] => {
  const boundaries = [...new Set([...cuts.map((cut) => Math.min(cut, history.length)), history.length])].sort(
    (a, b) => a - b,
  );
  let done = 0;
  return boundaries.map((boundary) => {
    const segment = history.slice(done, boundary);
    done = boundary;
    return segment;
  });
};

describe('views folded inline equal catch-up and rebuild', () => {
  it('over generated histories on SQLite, with restarts between segments: the committed views, a catch-up from zero and a rebuild agree, and nothing is left to read', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.array(fc.nat(80), { maxLength: 4 }), async (history, cuts) => {
        const store = SqliteEventStore.open(':memory:');
        try {
          for (const segment of segmentsOf(history, cuts)) {
            // A new runner each time: it reloads the committed views from the tables, like a restarted process.
            const projections = await sqliteProjections(store);
            const detach = projections.foldInline();
            if (detach === undefined) throw new Error('the SQLite store folds inline');
            for (const step of segment) await append(store, step);
            detach();
          }
          const inline = await sqliteProjections(store);
          expect(await inline.catchUp()).toBe(0);
          const memory = await TeamlogProjections.inMemory(store);
          await memory.catchUp();
          expect(everything(inline.views())).toEqual(everything(memory.views()));
          const rebuilt = await sqliteProjections(store, { batchSize: 1000 });
          await rebuilt.rebuild();
          expect(everything(rebuilt.views())).toEqual(everything(memory.views()));
        } finally {
          await store.close();
        }
      }),
      { numRuns: 40, seed: 20261201 },
    );
  }, 120_000);

  it('over generated histories in memory, appends made in one turn of the event loop: inline equals catch-up', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        const store = new InMemoryEventStore();
        const inline = await TeamlogProjections.inMemory(store);
        const detach = inline.foldInline();
        for (const step of history) await append(store, step);
        detach?.();
        const caughtUp = await TeamlogProjections.inMemory(store);
        await caughtUp.catchUp();
        expect(everything(inline.views())).toEqual(everything(caughtUp.views()));
        expect(await inline.catchUp()).toBe(0);
      }),
      { numRuns: 40, seed: 20261201 },
    );
  }, 120_000);

  it('given another connection writing between this one’s commits, then the inline views fold its events too, in order, and agree with a catch-up', async () => {
    const { file, cleanup } = tempFile('inline-gap.db');
    const here = SqliteEventStore.open(file);
    const there = SqliteEventStore.open(file);
    try {
      const projections = await sqliteProjections(here);
      const detach = projections.foldInline();
      await appendHeader(here, 'lead-1', 2);
      await appendHeader(there, 'm-a', 2);
      await appendSession(there, 'm-a', [{ type: 'turn/start', data: { turn: 1 } }]);
      await appendSession(here, 'lead-1', [{ type: 'turn/start', data: { turn: 1 } }]);
      detach?.();
      const memory = await TeamlogProjections.inMemory(here);
      await memory.catchUp();
      expect(projections.views().statistics()).toEqual(memory.views().statistics());
      expect(everything((await sqliteProjections(here)).views())).toEqual(everything(memory.views()));
      expect(projections.views().session(sid('m-a'))?.eventCount).toBe(1);
    } finally {
      await here.close();
      await there.close();
      cleanup();
    }
  });

  it('given inline folding, then a catch-up beside it is refused until it is detached', async () => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    const detach = projections.foldInline();
    await expect(projections.catchUp()).rejects.toMatchObject({ code: 'ProjectionBusy' });
    detach?.();
    expect(await projections.catchUp()).toBe(0);
  });
});
