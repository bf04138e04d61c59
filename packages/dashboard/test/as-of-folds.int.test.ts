import type { EventStore, ReadAllOptions, RecordedEvent } from '@teamlog/store';
import type { SqliteEventStore } from '@teamlog/store-sqlite';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { type FixtureStore, importHistoricalFixtures, openFixtureStore } from './fixture-store';
import { getJson, request } from './http-client';

/*
 * An as-of view folds `$all` from the start. Its cost is bounded: requests for the same moment
 * share one fold, only one runs at a time, a long queue is answered 503, and a fold yields to the
 * event loop so plain requests are answered while it runs (the latency is measured by the bench).
 */

/** The store, counting full reads of `$all` and holding each one open until released. */
const gatedStore = (inner: SqliteEventStore) => {
  let reads = 0;
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const store: EventStore = Object.create(inner, {
    readAll: {
      value: async function* (options?: ReadAllOptions): AsyncGenerator<RecordedEvent> {
        if (options?.fromPosition === undefined) {
          reads += 1;
          await gate;
        }
        yield* inner.readAll(options);
      },
    },
  }) as EventStore;
  return {
    store,
    reads: () => reads,
    hold: () => {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
};

let fixture: FixtureStore;
beforeAll(async () => {
  fixture = openFixtureStore();
  await importHistoricalFixtures(fixture.store);
}, 60_000);
afterAll(async () => {
  await fixture?.dispose();
});

describe('as-of views at a bounded cost', () => {
  let server: DashboardServer;
  afterEach(async () => {
    await server?.close();
  });

  it('shares one fold among the requests for the same moment, and answers plain requests while it waits', async () => {
    const gated = gatedStore(fixture.store);
    server = await startDashboardServer({ store: gated.store, port: 0 });
    const before = gated.reads();
    gated.hold();
    const url = new URL('/api/overview?asOf=2026-07-20T09:00:00Z', server.url).toString();
    const folds = Array.from({ length: 5 }, () => getJson(url));
    const plain = await getJson<{ overview: { sessions: number } }>(new URL('/api/overview', server.url).toString());
    expect(plain.status).toBe(200);
    expect(plain.body.overview.sessions).toBeGreaterThan(0);
    gated.release();
    const answers = await Promise.all(folds);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(gated.reads() - before).toBe(1);
  });

  it('answers 503 with Retry-After when more as-of folds wait than the queue holds', async () => {
    const gated = gatedStore(fixture.store);
    server = await startDashboardServer({ store: gated.store, port: 0, asOf: { concurrency: 1, queueLimit: 2 } });
    gated.hold();
    const moments = ['2026-07-20T09:00:00Z', '2026-07-20T10:00:00Z', '2026-07-20T11:00:00Z', '2026-07-20T12:00:00Z'];
    const folds = moments.map((moment) => request(new URL(`/api/teams?asOf=${moment}`, server.url).toString()));
    const refused = await folds[3];
    expect(refused?.status).toBe(503);
    expect(refused?.headers.get('retry-after')).toBe('1');
    expect(JSON.parse(refused?.text ?? '{}')).toMatchObject({
      error: expect.stringMatching(/busy with 3 as-of views/),
    });
    gated.release();
    expect((await Promise.all(folds.slice(0, 3))).map((answer) => answer.status)).toEqual([200, 200, 200]);
  });
});
