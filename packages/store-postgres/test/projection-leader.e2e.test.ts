import { resolve } from 'node:path';
import { type GlobalPosition, type RecordedEvent, formatPosition } from '@teamlog/store';
import { TeamlogProjections, TeamlogViews, foldViewsAsOf } from '@teamlog/projections';
import { type PostgresEventStore, postgresCommittedViews } from '@teamlog/store-postgres';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { appendSession, claim, relayItem, splice, userMessage } from '@teamlog/test-support/session-log-builder';
import { type RunningChild, runChild } from '../../../test/support/child-process';
import { withFreshStore } from './fresh-store';
import { rawQuery } from './raw-sql';

/* Projection runners in processes of their own on one database: one leads, the others wait; kill -9 the leader and another takes over. */

const runner = (url: string, crashAtCommit = 0): RunningChild =>
  runChild(resolve(__dirname, 'leader-child.js'), [url, '25', String(crashAtCommit)]);
const rolesOf = (child: RunningChild): string[] => child.lines.filter((line) => !line.startsWith('log '));
const alive = (child: RunningChild): boolean => child.child.exitCode === null && child.child.signalCode === null;
/** A live runner whose last word was that it leads. */
const isLeading = (child: RunningChild): boolean => alive(child) && rolesOf(child).at(-1) === 'leading';

const until = async (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
};

const storedCheckpoint = async (url: string): Promise<string | undefined> => {
  const [row] = await rawQuery<{ position_commit: string; position_prepare: string }>(
    url,
    'SELECT position_commit, position_prepare FROM teamlog.projection_checkpoints',
  ).catch(() => []);
  return row === undefined ? undefined : `${row.position_commit}/${row.position_prepare}`;
};

const lastPosition = async (store: PostgresEventStore): Promise<GlobalPosition> => {
  let last: RecordedEvent | undefined;
  for await (const event of store.readAll()) last = event;
  if (last === undefined) throw new Error('the store is empty');
  return last.position;
};

/** Inbox traffic into two sessions: acceptance, claim and conversation copy, 3 events per round. */
const traffic = async (store: PostgresEventStore, from: number, rounds: number): Promise<void> => {
  for (let round = from; round < from + rounds; round += 1) {
    const item = relayItem(`load-${round}`, 'direct-lead', 'lead');
    await appendSession(store, round % 2 === 0 ? 'v0-reviewer' : 'direct-reviewer', [
      splice('next-step', 0, [item]),
      claim('next-step', 1),
      userMessage(item),
    ]);
  }
};

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });

/** The views the database holds, against a fold of the store up to their checkpoint. */
const committedAgainstFold = async (store: PostgresEventStore) => {
  const committed = await postgresCommittedViews(store).read();
  if (committed?.checkpoint === undefined) throw new Error('no committed views');
  return {
    committed: everything(new TeamlogViews(committed.state)),
    folded: everything(new TeamlogViews(await foldViewsAsOf(store, { position: committed.checkpoint }))),
  };
};

describe('ProjectionLeader across processes on the real server', () => {
  it(
    'one of three runners leads; each time the leader is killed with SIGKILL another takes over, and the views equal a fold from zero',
    () =>
      withFreshStore('leader', async (store, url) => {
        await importFixtures(store, syntheticFixtures);
        const runners = [runner(url), runner(url), runner(url)];
        try {
          await until(
            'every runner has started and one leads',
            () => runners.every((child) => rolesOf(child).length > 0) && runners.filter(isLeading).length === 1,
          );
          let rounds = 0;
          for (const kill of [1, 2]) {
            const leader = runners.find(isLeading) as RunningChild;
            const before = await storedCheckpoint(url);
            await traffic(store, rounds, 150);
            rounds += 150;
            // The leader has committed something of this traffic before it dies (mid-run, between or inside commits).
            await until(`leader ${kill} commits`, async () => (await storedCheckpoint(url)) !== before);
            leader.child.kill('SIGKILL');
            await leader.exited;
            await until(`a runner takes over from leader ${kill}`, () => runners.filter(isLeading).length === 1);
            expect(
              runners
                .filter(alive)
                .map(rolesOf)
                .map((roles) => roles.at(-1))
                .sort(),
            ).toEqual(kill === 1 ? ['leading', 'waiting'] : ['leading']);
          }
          await traffic(store, rounds, 100);
          const end = formatPosition(await lastPosition(store));
          await until('the last leader has committed every event', async () => (await storedCheckpoint(url)) === end);

          const committed = await postgresCommittedViews(store).read();
          const memory = await TeamlogProjections.inMemory(store);
          await memory.catchUp();
          expect(committed === undefined ? undefined : everything(new TeamlogViews(committed.state))).toEqual(
            everything(memory.views()),
          );
          // Two were killed; the one left leads and nobody else ever led twice at once.
          const survivor = runners.find(alive) as RunningChild;
          expect(runners.filter((child) => child.child.signalCode === 'SIGKILL')).toHaveLength(2);
          expect(isLeading(survivor)).toBe(true);
          survivor.child.kill('SIGTERM');
          expect(await survivor.exited).toBe(0);
          expect(rolesOf(survivor).at(-1)).toBe('stopped');
          expect(survivor.stderr()).toBe('');
        } finally {
          runners.forEach((child) => child.child.kill('SIGKILL'));
        }
      }),
    180_000,
  );

  it(
    'a leader killed inside a commit transaction (views written, checkpoint not) leaves the views of its last commit; the next leader carries on to a fold from zero',
    () =>
      withFreshStore('leader_crash', async (store, url) => {
        await importFixtures(store, syntheticFixtures);
        await traffic(store, 0, 100);
        const crashing = runner(url, 3);
        try {
          await crashing.exited;
          expect({ signal: crashing.child.signalCode, roles: rolesOf(crashing) }).toEqual({
            signal: 'SIGKILL',
            roles: ['waiting', 'leading'],
          });
          const afterCrash = await committedAgainstFold(store);
          expect(afterCrash.committed).toEqual(afterCrash.folded);
          const next = runner(url);
          try {
            const end = formatPosition(await lastPosition(store));
            await until('the next leader has committed every event', async () => (await storedCheckpoint(url)) === end);
            const memory = await TeamlogProjections.inMemory(store);
            await memory.catchUp();
            const done = await committedAgainstFold(store);
            expect(done.committed).toEqual(everything(memory.views()));
            expect(done.committed).toEqual(done.folded);
          } finally {
            next.child.kill('SIGKILL');
          }
        } finally {
          crashing.child.kill('SIGKILL');
        }
      }),
    120_000,
  );
});
