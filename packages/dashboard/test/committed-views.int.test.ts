import { sqliteCommittedViews, sqliteProjections } from '@teamlog/store-sqlite';
import { join } from 'node:path';
import { importSessionLogs } from '@teamlog/dsh';
import { sequentialIds } from '@teamlog/events';

import { runDemo } from '@teamlog/scripted-host';
import { startDashboardServer } from '../src/dashboard-server';
import { type FixtureStore, openFixtureStore, repositoryRoot } from './fixture-store';
import { getJson } from './http-client';

let fixture: FixtureStore;

beforeEach(() => {
  fixture = openFixtureStore();
});

afterEach(async () => {
  await fixture.dispose();
});

const eventCount = (): number =>
  Number((fixture.store.database.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: bigint }).n);
const checkpoints = (): unknown[] =>
  fixture.store.database.prepare('SELECT * FROM projection_checkpoints ORDER BY projection').all();
const viewRowCounts = (): number[] =>
  ['projection_sessions', 'projection_teams', 'projection_inbox_entries', 'projection_held_messages'].map((table) =>
    Number((fixture.store.database.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: bigint }).n),
  );

const routes = [
  '/api/teams',
  '/api/sessions',
  '/api/audit',
  '/api/legacy-mailbox',
  '/api/failures',
  '/api/overview',
  '/api/statistics',
];

describe('a dashboard over a store file whose views are committed', () => {
  it('given views committed up to a checkpoint and newer events, when it starts, then it folds only the newer events, answers as a fold from zero does, and writes nothing', async () => {
    let tick = Date.UTC(2026, 10, 2, 9);
    await runDemo(fixture.store, sequentialIds('cv'), () => new Date((tick += 1000)));
    await (await sqliteProjections(fixture.store)).catchUp();
    const committedEvents = eventCount();
    // Mailbox-era Lead and member logs: legacy messages whose targets' logs arrive after the checkpoint.
    await importSessionLogs(join(repositoryRoot, 'fixtures', 'synthetic'), fixture.store);
    const newer = eventCount() - committedEvents;
    expect(newer).toBeGreaterThan(0);
    const before = { checkpoints: checkpoints(), rows: viewRowCounts() };

    const seeded = await startDashboardServer({
      store: fixture.store,
      port: 0,
      committedViews: sqliteCommittedViews(fixture.store),
    });
    const fromZero = await startDashboardServer({ store: fixture.store, port: 0 });
    try {
      expect(seeded.start).toMatchObject({ from: 'committed-views', eventsFolded: newer });
      expect(seeded.start.checkpoint).not.toBeNull();
      expect(fromZero.start).toEqual({ from: 'empty', checkpoint: null, eventsFolded: committedEvents + newer });
      for (const route of routes) {
        const [a, b] = await Promise.all([
          getJson(new URL(route, seeded.url).toString()),
          getJson(new URL(route, fromZero.url).toString()),
        ]);
        expect([route, a.status]).toEqual([route, 200]);
        expect([route, a.body]).toEqual([route, b.body]);
      }
      const sessions = await getJson<{ sessions: Array<{ id: string }> }>(
        new URL('/api/sessions', seeded.url).toString(),
      );
      expect(sessions.body.sessions.length).toBeGreaterThan(10);
      for (const { id } of sessions.body.sessions) {
        const route = `/api/inbox?sessionId=${encodeURIComponent(id)}`;
        const [a, b] = await Promise.all([
          getJson(new URL(route, seeded.url).toString()),
          getJson(new URL(route, fromZero.url).toString()),
        ]);
        expect([route, a.status, a.body]).toEqual([route, 200, b.body]);
      }
      const legacy = await getJson<{ messages: Array<{ targetHasMessage?: boolean }> }>(
        new URL('/api/legacy-mailbox', seeded.url).toString(),
      );
      expect(legacy.body.messages.some((message) => message.targetHasMessage === true)).toBe(true);
    } finally {
      await seeded.close();
      await fromZero.close();
    }
    expect({ checkpoints: checkpoints(), rows: viewRowCounts() }).toEqual(before);
  });

  it('given a store file without views, when it starts, then it folds from zero and creates no view tables', async () => {
    let tick = Date.UTC(2026, 10, 2, 9);
    await runDemo(fixture.store, sequentialIds('nv'), () => new Date((tick += 1000)));
    const server = await startDashboardServer({ store: fixture.store, port: 0 });
    try {
      expect(server.start).toEqual({ from: 'empty', checkpoint: null, eventsFolded: eventCount() });
    } finally {
      await server.close();
    }
    const tables = fixture.store.database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'projection%'")
      .all();
    expect(tables).toEqual([]);
  });
});
