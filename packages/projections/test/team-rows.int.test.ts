import {
  SqliteEventStore,
  applyMigrations,
  projectionSchemaTable,
  sqliteProjections,
  viewMigrations,
} from '@teamlog/store-sqlite';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import { appendSession, delivered, member, queued, task } from '@teamlog/test-support/session-log-builder';
import { tempFile } from './temp-file';

/* The Team view kept as rows: a commit writes what its batch changed, and restarts read the rows back. */

const everything = (views: TeamlogViews) => ({
  replay: views.replay(),
  statistics: views.statistics(),
  audit: views.audit(),
});

/** A Lead with two members, three tasks and two legacy messages, one delivered to another target. */
const appendTeam = async (store: SqliteEventStore): Promise<void> => {
  await appendSession(store, 'lead', [
    member(1, 'lead', 'm1', 'alpha', 'provisioning'),
    member(1, 'lead', 'm2', 'beta', 'provisioning'),
    member(1, 'lead', 'm1', 'alpha', 'active'),
    task(1, 'lead', 't1', 1),
    task(1, 'lead', 't2', 1, { blockedBy: ['t1'] }),
    task(1, 'lead', 't3', 1),
    queued(1, 'lead', 'q1', 'lead', 'lead', 'm1'),
    queued(1, 'lead', 'q2', 'lead', 'lead', 'm2'),
    delivered(1, 'lead', 'q1', 'm1'),
  ]);
};

/** Logs the keys of team rows inserted or replaced from now on, on this connection only. */
const logTeamRowWrites = (store: SqliteEventStore): (() => string[]) => {
  const db = store.database;
  db.exec('CREATE TEMP TABLE written (what TEXT NOT NULL)');
  for (const [table, key] of [
    ['projection_team_members', 'member_id'],
    ['projection_team_tasks', 'task_id'],
    ['projection_team_messages', 'message_id'],
  ]) {
    db.exec(
      `CREATE TEMP TRIGGER log_${table} AFTER INSERT ON main.${table} BEGIN INSERT INTO written VALUES ('${table}:' || new.${key}); END`,
    );
  }
  return () => (db.prepare('SELECT what FROM written').all() as Array<{ what: string }>).map((row) => row.what);
};

describe('team views as rows', () => {
  let file: string;
  let cleanup: () => void;

  beforeEach(() => ({ file, cleanup } = tempFile()));
  afterEach(() => cleanup());

  it('given a committed team, when one task changes, then the commit writes that task row and no other member, task or message row', async () => {
    let store = SqliteEventStore.open(file);
    await appendTeam(store);
    await (await sqliteProjections(store)).catchUp();
    await store.close();

    store = SqliteEventStore.open(file);
    const written = logTeamRowWrites(store);
    await appendSession(store, 'lead', [task(1, 'lead', 't2', 2, { status: 'in_progress', ownerId: 'm1' })]);
    const projections = await sqliteProjections(store);
    expect(await projections.catchUp()).toBe(1);
    expect(written()).toEqual(['projection_team_tasks:t2']);
    await store.close();
  });

  it('given a restart after every two events, then the reloaded team (roster, tasks, mailbox, record facts, mismatches) equals a fold from zero', async () => {
    const events = [
      member(1, 'lead', 'm1', 'alpha', 'provisioning'),
      member(1, 'lead', 'm2', 'beta', 'provisioning'),
      task(1, 'lead', 't1', 1),
      member(1, 'lead', 'm1', 'alpha', 'active'),
      task(1, 'lead', 't2', 1, { blockedBy: ['t1'] }),
      queued(1, 'lead', 'q1', 'lead', 'lead', 'm1'),
      task(1, 'lead', 't1', 2, { status: 'completed' }),
      queued(2, 'lead', 'q2', 'lead', 'lead', 'm2'),
      delivered(2, 'lead', 'q1', 'm1'),
      delivered(2, 'lead', 'q2', 'm1'),
      task(2, 'lead', 't3', 1),
    ];
    for (let done = 0; done < events.length; done += 2) {
      // A new process each time: it reads the committed rows back before folding the next events.
      const store = SqliteEventStore.open(file);
      await appendSession(store, 'lead', events.slice(done, done + 2));
      await (await sqliteProjections(store, { batchSize: 1 })).catchUp();
      await store.close();
    }
    const store = SqliteEventStore.open(file);
    const reloaded = await sqliteProjections(store);
    const memory = await TeamlogProjections.inMemory(store);
    await memory.catchUp();
    expect(everything(reloaded.views())).toEqual(everything(memory.views()));
    expect(
      reloaded
        .views()
        .audit()
        .map((finding) => finding.code),
    ).toContain('legacy-delivered-to-other-target');
    expect(reloaded.views().teams()[0]?.failure).toEqual(expect.objectContaining({ type: 'team/message/delivered' }));
    expect(
      reloaded
        .views()
        .teams()[0]
        ?.tasks.map((one) => one.id),
    ).toEqual(['t1', 't2']);
    await store.close();
  });

  it('given views written with the document schema (migration 1), when opened, then they are emptied and the next catch-up rebuilds them', async () => {
    let store = SqliteEventStore.open(file);
    await appendTeam(store);
    applyMigrations(
      store.database,
      viewMigrations.filter((migration) => migration.version === 1),
      file,
      projectionSchemaTable,
    );
    store.database
      .prepare(
        "INSERT INTO projection_teams (lead_session_id, team_id, team) VALUES ('lead', 'lead', '{\"members\": []}')",
      )
      .run();
    store.database.prepare("INSERT INTO projection_checkpoints VALUES ('teamlog-views', '9', '9', 0)").run();
    await store.close();

    store = SqliteEventStore.open(file);
    const upgraded = await sqliteProjections(store);
    expect(upgraded.checkpoint).toBeUndefined();
    expect(upgraded.views().teams()).toEqual([]);
    await upgraded.catchUp();
    const memory = await TeamlogProjections.inMemory(store);
    await memory.catchUp();
    expect(everything(upgraded.views())).toEqual(everything(memory.views()));
    expect(
      upgraded
        .views()
        .teams()[0]
        ?.members.map((one) => one.id),
    ).toEqual(['m1', 'm2']);
    await store.close();
  });
});
