import type { GlobalPosition, RecordedEvent } from '@teamlog/store';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { foldViewsAsOf, readReplayView } from '@teamlog/projections';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { tempFile } from './temp-file';

const positions = async (store: SqliteEventStore): Promise<GlobalPosition[]> => {
  const all: RecordedEvent[] = [];
  for await (const event of store.readAll()) all.push(event);
  return all.map((event) => event.position);
};

describe('views in the event store SQLite file', () => {
  let file: string;
  let cleanup: () => void;

  beforeEach(async () => {
    ({ file, cleanup } = tempFile());
    const store = SqliteEventStore.open(file);
    await importFixtures(store, syntheticFixtures);
    await store.close();
  });

  afterEach(() => cleanup());

  it('keeps the views and checkpoint across a restart: the reloaded views equal the folded ones', async () => {
    let store = SqliteEventStore.open(file);
    const first = await sqliteProjections(store, { batchSize: 64 });
    await first.catchUp();
    const before = {
      replay: first.views().replay(),
      statistics: first.views().statistics(),
      checkpoint: first.checkpoint,
    };
    await store.close();

    store = SqliteEventStore.open(file);
    const reopened = await sqliteProjections(store);
    expect(reopened.checkpoint).toEqual(before.checkpoint);
    expect(reopened.views().replay()).toEqual(before.replay);
    expect(reopened.views().statistics()).toEqual(before.statistics);
    expect(await reopened.catchUp()).toBe(0);
    await store.close();
  });

  it('applies its schema as versioned migrations in their own table', async () => {
    const store = SqliteEventStore.open(file);
    await sqliteProjections(store);
    const versions = store.database.prepare('SELECT version, name FROM projection_schema_migrations').all();
    expect(versions).toEqual([
      { version: 1n, name: 'projection_views' },
      { version: 2n, name: 'team_rows' },
      { version: 3n, name: 'acceptance_checks' },
    ]);
    await store.close();
  });

  it('names the file, table, row and field of a corrupt view row', async () => {
    let store = SqliteEventStore.open(file);
    await (await sqliteProjections(store)).catchUp();
    store.database
      .prepare("UPDATE projection_teams SET next_task_number = 'many' WHERE lead_session_id = 'v0-lead'")
      .run();
    await store.close();
    store = SqliteEventStore.open(file);
    await expect(sqliteProjections(store)).rejects.toThrow(expect.objectContaining({ code: 'CorruptViewRow' }));
    await expect(sqliteProjections(store)).rejects.toThrow(
      `${file}: table projection_teams, row v0-lead: nextTaskNumber`,
    );
    await store.close();
  });

  it('names the team, member and snapshot field of a corrupt member row', async () => {
    let store = SqliteEventStore.open(file);
    await (await sqliteProjections(store)).catchUp();
    const member = store.database
      .prepare("SELECT member_id FROM projection_team_members WHERE lead_session_id = 'v0-lead' LIMIT 1")
      .get() as { member_id: string };
    store.database
      .prepare(
        "UPDATE projection_team_members SET snapshot = json_set(snapshot, '$.phase', 'asleep') WHERE member_id = ?",
      )
      .run(member.member_id);
    await store.close();
    store = SqliteEventStore.open(file);
    await expect(sqliteProjections(store)).rejects.toThrow(
      `${file}: table projection_team_members, row v0-lead/${member.member_id}: snapshot.phase`,
    );
    await store.close();
  });

  it('refuses a member row filed under another id than its snapshot', async () => {
    let store = SqliteEventStore.open(file);
    await (await sqliteProjections(store)).catchUp();
    store.database
      .prepare(
        "UPDATE projection_team_members SET member_id = 'someone-else' WHERE lead_session_id = 'v0-lead' AND member_id = (SELECT MIN(member_id) FROM projection_team_members WHERE lead_session_id = 'v0-lead')",
      )
      .run();
    await store.close();
    store = SqliteEventStore.open(file);
    await expect(sqliteProjections(store)).rejects.toThrow(
      `${file}: table projection_team_members, row v0-lead/someone-else: member_id does not match`,
    );
    await store.close();
  });

  it('given a commit that fails after writing views, then neither views nor checkpoint are kept', async () => {
    const store = SqliteEventStore.open(file);
    let commits = 0;
    const failing = await sqliteProjections(store, {
      batchSize: 40,
      onViewsWritten: () => {
        commits += 1;
        if (commits === 3) throw new Error('crash between views and checkpoint');
      },
    });
    await expect(failing.catchUp()).rejects.toMatchObject({ code: 'ProjectionCommitFailed' });
    const all = await positions(store);
    expect(failing.checkpoint).toEqual(all[79]);
    const reopened = await sqliteProjections(store);
    expect(reopened.checkpoint).toEqual(all[79]);
    expect(reopened.views().replay()).toEqual(
      readReplayView(await foldViewsAsOf(store, { position: all[79] as GlobalPosition })),
    );
    await reopened.catchUp();
    expect(reopened.views().replay()).toEqual(
      readReplayView(await foldViewsAsOf(store, { position: all[all.length - 1] as GlobalPosition })),
    );
    await store.close();
  });

  it('rebuilds from zero to the views it caught up to', async () => {
    const store = SqliteEventStore.open(file);
    const projections = await sqliteProjections(store, { batchSize: 33 });
    await projections.catchUp();
    const caughtUp = projections.views().replay();
    await projections.rebuild();
    expect(projections.views().replay()).toEqual(caughtUp);
    expect((await sqliteProjections(store)).views().replay()).toEqual(caughtUp);
    await store.close();
  });
});
