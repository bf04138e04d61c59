import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import type { TeamlogViews } from '@teamlog/projections';
import { join } from 'node:path';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { tempFile } from './temp-file';

const undeliveredIds = (views: TeamlogViews): string[] =>
  views
    .teams()
    .flatMap((team) =>
      team.legacyMessages.filter((message) => message.status === 'undelivered').map((message) => message.id),
    );

const storedEvents = async (store: SqliteEventStore): Promise<number> => {
  let count = 0;
  for await (const _event of store.readAll()) count += 1;
  return count;
};

describe('legacy mailbox is never a source of delivery', () => {
  it('after import, restart and rebuild, no undelivered legacy message is in any inbox and nothing was written', async () => {
    const { file, cleanup } = tempFile();
    let store = SqliteEventStore.open(file);
    // The mailbox-era scenarios (the audit scenarios hold a deliberately misdelivered copy).
    for (const scenario of ['v0-mailbox', 'v4-late-delivery', 'v0-fork'])
      await importFixtures(store, join(syntheticFixtures, scenario));
    const imported = await storedEvents(store);
    await (await sqliteProjections(store)).catchUp();
    await store.close();

    store = SqliteEventStore.open(file); // restart: views come back from the file
    const restarted = await sqliteProjections(store);
    expect(await restarted.catchUp()).toBe(0);
    await restarted.rebuild();
    const views = restarted.views();

    const undelivered = undeliveredIds(views);
    expect(undelivered.length).toBeGreaterThan(0);
    const accepted = new Set<string>(views.inbox().flatMap((entry) => [entry.messageId, entry.itemId]));
    expect(undelivered.filter((id) => accepted.has(id))).toEqual([]);
    expect(
      views
        .teams()
        .flatMap((team) => team.legacyMessages)
        .filter((message) => message.status === 'undelivered')
        .map((message) => message.targetHasMessage),
    ).not.toContain(true);
    expect(await storedEvents(store)).toBe(imported);
    await store.close();
    cleanup();
  });
});
