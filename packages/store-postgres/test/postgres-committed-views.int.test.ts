import type { MessageId, SessionId } from '@teamlog/events';
import { TeamlogProjections, TeamlogViews } from '@teamlog/projections';
import { type PostgresEventStore, PostgresViewStore, postgresCommittedViews } from '@teamlog/store-postgres';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { appendSession, delivered, member, queued, text, userMessage } from '@teamlog/test-support/session-log-builder';
import { withFreshStore } from './fresh-store';
import { rawQuery } from './raw-sql';

const viewsIn = async (store: PostgresEventStore, options: { batchSize?: number } = {}): Promise<TeamlogProjections> =>
  TeamlogProjections.open(store, await PostgresViewStore.open(store), options);

describe('postgresCommittedViews', () => {
  it('given a database without views, when read, then there are none and nothing is created', () =>
    withFreshStore('committed_none', async (store, url) => {
      await importFixtures(store, syntheticFixtures);
      expect(await postgresCommittedViews(store).read()).toBeUndefined();
      expect(
        await rawQuery(
          url,
          "SELECT to_regclass('teamlog.projection_schema_migrations') AS t, to_regclass('teamlog.projection_checkpoints') AS c",
        ),
      ).toEqual([{ t: null, c: null }]);
    }));

  it('given committed views, when read, then they hold the committed state at its checkpoint', () =>
    withFreshStore('committed_views', async (store) => {
      await importFixtures(store, syntheticFixtures);
      const projections = await viewsIn(store);
      expect(await postgresCommittedViews(store).read()).toBeUndefined(); // the tables exist, nothing is committed yet
      await projections.catchUp();
      const loaded = await postgresCommittedViews(store).read();
      expect(loaded?.checkpoint).toEqual(projections.checkpoint);
      expect(loaded === undefined ? undefined : new TeamlogViews(loaded.state).replay()).toEqual(
        projections.views().replay(),
      );
    }));

  it('given views at a schema version this code does not know, when read, then there are none (no migration, no error)', () =>
    withFreshStore('committed_newer', async (store, url) => {
      await importFixtures(store, syntheticFixtures);
      await (await viewsIn(store)).catchUp();
      await rawQuery(
        url,
        "INSERT INTO teamlog.projection_schema_migrations (version, name) VALUES (99, 'from_the_future')",
      );
      expect(await postgresCommittedViews(store).read()).toBeUndefined();
    }));
});

/** A plain prompt in the target's log that carries the queued message's id. */
const prompt = (id: string) => userMessage({ id, role: 'user', content: [text('hi')], source: { kind: 'user' } });

const targetHas = (views: TeamlogViews): Record<string, boolean | undefined> =>
  Object.fromEntries(
    views
      .teams()
      .flatMap((team) => team.legacyMessages)
      .map((message) => [message.id, message.targetHasMessage]),
  );

describe('held message ids in the PostgreSQL views', () => {
  it('given ids held in committed batches, then after a restart the legacy view still finds them, as a fold in memory does; the first seq stays', () =>
    withFreshStore('views_held', async (store, url) => {
      await appendSession(store, 'lead', [
        member(1, 'lead', 'm1', 'alpha', 'provisioning'),
        queued(2, 'lead', 'q1', 'lead', 'lead', 'm1'),
        queued(2, 'lead', 'q2', 'lead', 'lead', 'm1'),
      ]);
      await appendSession(store, 'm1', [prompt('q1'), prompt('other')]);
      await (await viewsIn(store, { batchSize: 1 })).catchUp();

      const restarted = await viewsIn(store);
      expect(targetHas(restarted.views())).toEqual({ q1: true, q2: false });
      // The committed ids were loaded with the views: the fold asks for them synchronously.
      expect(
        restarted
          .views()
          .state.heldMessagesOf('m1' as SessionId)
          .has('other' as MessageId),
      ).toBe(true);

      await appendSession(store, 'm1', [prompt('q2'), prompt('q2'), prompt('q1')]);
      await appendSession(store, 'lead', [delivered(2, 'lead', 'q2', 'm1')]);
      await restarted.catchUp();
      const memory = await TeamlogProjections.inMemory(store);
      await memory.catchUp();
      expect(targetHas(restarted.views())).toEqual({ q1: true, q2: true });
      expect(restarted.views().replay()).toEqual(memory.views().replay());
      expect(
        await rawQuery(
          url,
          "SELECT message_id, seq::int FROM teamlog.projection_held_messages WHERE session_id = 'm1' ORDER BY seq",
        ),
      ).toEqual([
        { message_id: 'q1', seq: 0 },
        { message_id: 'other', seq: 1 },
        { message_id: 'q2', seq: 2 },
      ]);
    }));
});
