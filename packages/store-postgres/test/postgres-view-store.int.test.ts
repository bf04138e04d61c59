import type { GlobalPosition, RecordedEvent } from '@teamlog/store';
import { TeamlogProjections, type TeamlogViews, foldViewsAsOf, readReplayView } from '@teamlog/projections';
import {
  type PostgresEventStore,
  PostgresViewStore,
  describePostgresUrl,
  postgresProjections,
  shippedMigrations,
  shippedViewMigrations,
} from '@teamlog/store-postgres';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { withFreshStore } from './fresh-store';
import { rawQuery } from './raw-sql';

/* The views in the store's own PostgreSQL database: the SQLite view store's tests, on the real server. */

const positions = async (store: PostgresEventStore): Promise<GlobalPosition[]> => {
  const all: RecordedEvent[] = [];
  for await (const event of store.readAll()) all.push(event);
  return all.map((event) => event.position);
};

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });

const viewsIn = async (store: PostgresEventStore, options: { batchSize?: number } = {}): Promise<TeamlogProjections> =>
  TeamlogProjections.open(store, await PostgresViewStore.open(store), options);

const foldFromZero = async (store: PostgresEventStore) => {
  const memory = await TeamlogProjections.inMemory(store);
  await memory.catchUp();
  return everything(memory.views());
};

/** The synthetic fixtures in a fresh database. */
const withFixtures = (label: string, run: (store: PostgresEventStore, url: string) => Promise<void>): Promise<void> =>
  withFreshStore(label, async (store, url) => {
    await importFixtures(store, syntheticFixtures);
    await run(store, url);
  });

describe("views in the PostgreSQL store's own database", () => {
  it('keeps the views and checkpoint across a restart: the reloaded views equal the folded ones and a fold from zero', () =>
    withFixtures('views_restart', async (store) => {
      const first = await viewsIn(store, { batchSize: 64 });
      expect(await first.catchUp()).toBeGreaterThan(0);
      const before = { ...everything(first.views()), checkpoint: first.checkpoint };
      const reopened = await viewsIn(store);
      expect(reopened.checkpoint).toEqual(before.checkpoint);
      expect(everything(reopened.views())).toEqual({ replay: before.replay, statistics: before.statistics });
      expect(everything(reopened.views())).toEqual(await foldFromZero(store));
      expect(await reopened.catchUp()).toBe(0);
    }));

  it("applies its schema as versioned migrations in a table of its own, beside the event store's", () =>
    withFreshStore('views_schema', async (store, url) => {
      await PostgresViewStore.open(store);
      await PostgresViewStore.open(store);
      expect(
        await rawQuery(url, 'SELECT version, name FROM teamlog.projection_schema_migrations ORDER BY version'),
      ).toEqual(shippedViewMigrations.map((migration) => ({ version: migration.version, name: migration.name })));
      expect(await rawQuery(url, 'SELECT count(*)::int AS n FROM teamlog.schema_migrations')).toEqual([
        { n: shippedMigrations.length },
      ]);
    }));

  it('writes the views and their checkpoint in one transaction: a commit that fails after writing views keeps neither', () =>
    withFixtures('views_failed_commit', async (store) => {
      let commits = 0;
      const failing = await TeamlogProjections.open(
        store,
        await PostgresViewStore.open(store, {
          onViewsWritten: () => {
            commits += 1;
            if (commits === 3) throw new Error('crash between views and checkpoint');
          },
        }),
        { batchSize: 40 },
      );
      await expect(failing.catchUp()).rejects.toMatchObject({ code: 'ProjectionCommitFailed' });
      const all = await positions(store);
      expect(failing.checkpoint).toEqual(all[79]);
      const reopened = await viewsIn(store);
      expect(reopened.checkpoint).toEqual(all[79]);
      expect(reopened.views().replay()).toEqual(
        readReplayView(await foldViewsAsOf(store, { position: all[79] as GlobalPosition })),
      );
      await reopened.catchUp();
      expect(everything(reopened.views())).toEqual(await foldFromZero(store));
    }));

  it('rebuilds from zero to the views it caught up to', () =>
    withFixtures('views_rebuild', async (store) => {
      const projections = await viewsIn(store, { batchSize: 33 });
      await projections.catchUp();
      const caughtUp = everything(projections.views());
      await projections.rebuild();
      expect(everything(projections.views())).toEqual(caughtUp);
      expect(everything((await viewsIn(store)).views())).toEqual(caughtUp);
    }));

  it('names the database (without its password), table, row and field of a corrupt view row', () =>
    withFixtures('views_corrupt', async (store, url) => {
      await (await viewsIn(store)).catchUp();
      await rawQuery(
        url,
        "UPDATE teamlog.projection_team_members SET snapshot = json_build_object('id', member_id, 'phase', 'asleep') WHERE lead_session_id = 'v0-lead'",
      );
      const error = await viewsIn(store).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'CorruptViewRow' });
      expect((error as Error).message).toContain(
        `${describePostgresUrl(url)}: table teamlog.projection_team_members, row v0-lead/`,
      );
      expect((error as Error).message).toMatch(/: snapshot\./);
    }));

  it('given a runner whose views another runner moved on, when it commits, then it takes their views and carries on', () =>
    withFreshStore('views_two_runners', async (store) => {
      const late = await viewsIn(store, { batchSize: 20 });
      await importFixtures(store, `${syntheticFixtures}/v0-mailbox`);
      await (await viewsIn(store, { batchSize: 20 })).catchUp();
      await importFixtures(store, `${syntheticFixtures}/v4-direct`);
      await late.catchUp();
      const expected = await foldFromZero(store);
      expect(everything(late.views())).toEqual(expected);
      expect(everything((await viewsIn(store)).views())).toEqual(expected);
    }));

  it('postgresProjections leads the views when no one else does, and otherwise folds the committed views on in memory without writing', () =>
    withFreshStore('views_lead', async (store, url) => {
      await importFixtures(store, `${syntheticFixtures}/v0-mailbox`);
      const leader = await postgresProjections(store, { batchSize: 50 });
      expect(leader.leading).toBe(true);
      await leader.projections.catchUp();
      const committed = leader.projections.checkpoint;
      await importFixtures(store, `${syntheticFixtures}/v4-direct`);
      const other = await postgresProjections(store);
      expect(other.leading).toBe(false);
      expect(other.projections.checkpoint).toEqual(committed);
      expect(await other.projections.catchUp()).toBeGreaterThan(0);
      expect(everything(other.projections.views())).toEqual(await foldFromZero(store));
      const stored = await rawQuery<{ position_commit: string; position_prepare: string }>(
        url,
        'SELECT position_commit, position_prepare FROM teamlog.projection_checkpoints',
      );
      expect(
        stored.map((row) => ({ commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) })),
      ).toEqual([committed]);
      await other.release();
      await leader.release();
      const next = await postgresProjections(store);
      expect(next.leading).toBe(true);
      await next.projections.catchUp();
      expect(everything(next.projections.views())).toEqual(await foldFromZero(store));
      await next.release();
    }));
});
