import type { SessionId } from '@teamlog/events';
import { SqliteEventStore, sqliteProjections, SqliteHeldMessages } from '@teamlog/store-sqlite';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import { appendSession, delivered, member, queued, text, userMessage } from '@teamlog/test-support/session-log-builder';
import { tempFile } from './temp-file';

/* The ids a log holds stay in the SQLite file (a log may hold millions); the legacy view reads them there. */

const targetHas = (views: TeamlogViews): Record<string, boolean | undefined> =>
  Object.fromEntries(
    views
      .teams()
      .flatMap((team) => team.legacyMessages)
      .map((message) => [message.id, message.targetHasMessage]),
  );

/** A plain prompt in the target's log that carries the queued message's id. */
const prompt = (id: string) => userMessage({ id, role: 'user', content: [text('hi')], source: { kind: 'user' } });

describe('held message ids in the SQLite views', () => {
  it('given ids held by plain prompts of the target in committed batches, then after a restart the legacy view still finds them, as a fold in memory does', async () => {
    const { file, cleanup } = tempFile();
    let store = SqliteEventStore.open(file);
    await appendSession(store, 'lead', [
      member(1, 'lead', 'm1', 'alpha', 'provisioning'),
      queued(2, 'lead', 'q1', 'lead', 'lead', 'm1'),
      queued(2, 'lead', 'q2', 'lead', 'lead', 'm1'),
    ]);
    await appendSession(store, 'm1', [prompt('q1'), prompt('other')]);
    await (await sqliteProjections(store, { batchSize: 1 })).catchUp();
    await store.close();

    store = SqliteEventStore.open(file);
    const restarted = await sqliteProjections(store);
    // m1's held ids were not loaded into memory: the view reads them from the file.
    expect(restarted.views().state.inboxes.get('m1' as SessionId)?.held).toBeInstanceOf(SqliteHeldMessages);
    expect(targetHas(restarted.views())).toEqual({ q1: true, q2: false });

    // Held in a batch not yet committed, then committed: the same answer either way; an id seen
    // again keeps the seq it was first held at, whether that was in this batch or an earlier one.
    await appendSession(store, 'm1', [prompt('q2'), prompt('q2'), prompt('q1')]);
    await appendSession(store, 'lead', [delivered(2, 'lead', 'q2', 'm1')]);
    await restarted.catchUp();
    const memory = await TeamlogProjections.inMemory(store);
    await memory.catchUp();
    expect(targetHas(restarted.views())).toEqual({ q1: true, q2: true });
    expect(restarted.views().replay()).toEqual(memory.views().replay());
    const rows = store.database
      .prepare("SELECT message_id, seq FROM projection_held_messages WHERE session_id = 'm1' ORDER BY seq")
      .all();
    expect(rows).toEqual([
      { message_id: 'q1', seq: 0n },
      { message_id: 'other', seq: 1n },
      { message_id: 'q2', seq: 2n },
    ]);
    await store.close();
    cleanup();
  });
});
