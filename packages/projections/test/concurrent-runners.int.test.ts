import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import type { GlobalPosition } from '@teamlog/store';
import { TeamlogProjections, TeamlogViews, foldViewsAsOf } from '@teamlog/projections';
import { join } from 'node:path';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { appendSession, relayItem, splice } from '@teamlog/test-support/session-log-builder';
import { tempFile } from './temp-file';

/* Two runners over one file (as the CLI and the dashboard can be): neither may leave views that do not match the checkpoint. */

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });

const foldFromZero = async (store: SqliteEventStore) => {
  const memory = await TeamlogProjections.inMemory(store);
  await memory.catchUp();
  return everything(memory.views());
};

describe('runners sharing one SQLite file', () => {
  it('given a runner whose views another runner moved on, when it commits, then it takes their views and carries on', async () => {
    const { file, cleanup } = tempFile();
    const store = SqliteEventStore.open(file);
    const late = await sqliteProjections(store, { batchSize: 20 }); // loads the (empty) views now
    await importFixtures(store, join(syntheticFixtures, 'v0-mailbox'));
    const early = await sqliteProjections(store, { batchSize: 20 });
    await early.catchUp();
    await importFixtures(store, join(syntheticFixtures, 'v4-direct'));
    await late.catchUp();
    const expected = await foldFromZero(store);
    expect(everything(late.views())).toEqual(expected);
    expect(everything((await sqliteProjections(store)).views())).toEqual(expected);
    await store.close();
    cleanup();
  });

  it('given a stale runner that commits once and then crashes, then the file still holds views matching its checkpoint', async () => {
    const { file, cleanup } = tempFile();
    const store = SqliteEventStore.open(file);
    let commits = 0;
    const stale = await sqliteProjections(store, {
      batchSize: 20,
      onViewsWritten: () => {
        commits += 1;
        if (commits === 2) throw new Error('crash');
      },
    });
    await importFixtures(store, join(syntheticFixtures, 'v0-mailbox'));
    await (await sqliteProjections(store, { batchSize: 20 })).catchUp();
    await importFixtures(store, join(syntheticFixtures, 'v4-direct'));
    await expect(stale.catchUp()).rejects.toThrow('crash');
    const reopened = await sqliteProjections(store);
    const checkpoint = reopened.checkpoint as GlobalPosition;
    expect(everything(reopened.views())).toEqual(
      everything(new TeamlogViews(await foldViewsAsOf(store, { position: checkpoint }))),
    );
    await store.close();
    cleanup();
  });

  it('given a live runner, when another runner commits ahead of it, then it follows on from their checkpoint', async () => {
    const { file, cleanup } = tempFile();
    const store = SqliteEventStore.open(file);
    const live = await sqliteProjections(store, { batchSize: 5 });
    live.start();
    await importFixtures(store, join(syntheticFixtures, 'v0-mailbox'));
    await (await sqliteProjections(store, { batchSize: 7 })).catchUp();
    const last = await appendSession(store, 'v0-reviewer', [
      splice('next-step', 0, [relayItem('after', 'v0-lead', 'lead')]),
    ]);
    await live.waitFor(last);
    await live.stop();
    const expected = await foldFromZero(store);
    expect(everything(live.views())).toEqual(expected);
    expect(everything((await sqliteProjections(store)).views())).toEqual(expected);
    await store.close();
    cleanup();
  });
});
