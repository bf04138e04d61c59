import { TeamlogProjections, TeamlogViews } from '@teamlog/projections';
import {
  type LeaderRole,
  ProjectionLeader,
  postgresCommittedViews,
  postgresProjections,
} from '@teamlog/store-postgres';
import { formatPosition } from '@teamlog/store';
import { importFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { appendSession, relayItem, splice } from '@teamlog/test-support/session-log-builder';
import { withFreshStore } from './fresh-store';
import { rawQuery } from './raw-sql';

const until = async (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
};

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });

describe('ProjectionLeader in one process', () => {
  it("given the lead's connection is terminated by the server, then it stops leading, waits, leads again and loses nothing", () =>
    withFreshStore('leader_lost', async (store, url) => {
      await importFixtures(store, `${syntheticFixtures}/v0-mailbox`);
      const roles: LeaderRole[] = [];
      const lines: string[] = [];
      const leader = ProjectionLeader.start(store, {
        batchSize: 10,
        pollMs: 100,
        onRole: (role) => roles.push(role),
        log: (line) => lines.push(line),
      });
      try {
        await until('it leads', () => leader.role === 'leading');
        expect(leader.projections).toBeDefined();
        await rawQuery(
          url,
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'teamlog-projection-lead' AND datname = current_database()",
        );
        await until('it leads again', () => roles.filter((role) => role === 'leading').length === 2);
        expect(roles).toEqual(['waiting', 'leading', 'waiting', 'leading']);
        expect(lines.join('\n')).toMatch(/projection teamlog-views: .*; waiting for the lead again/);
        const last = await appendSession(store, 'v0-reviewer', [
          splice('next-step', 0, [relayItem('after-the-loss', 'v0-lead', 'lead')]),
        ]);
        await (leader.projections as TeamlogProjections).waitFor(last);
        const memory = await TeamlogProjections.inMemory(store);
        await memory.catchUp();
        const committed = await postgresCommittedViews(store).read();
        expect(committed?.checkpoint === undefined ? undefined : formatPosition(committed.checkpoint)).toBe(
          formatPosition(last),
        );
        expect(committed === undefined ? undefined : everything(new TeamlogViews(committed.state))).toEqual(
          everything(memory.views()),
        );
      } finally {
        await leader.stop();
      }
      expect(leader.role).toBe('stopped');
    }));

  it('given a leader, a one-off run does not take the lead; once the leader stops, a waiting runner leads, and a stopped runner leaves no connection behind', () =>
    withFreshStore('leader_oneoff', async (store, url) => {
      await importFixtures(store, `${syntheticFixtures}/v0-mailbox`);
      const first = ProjectionLeader.start(store, { pollMs: 50 });
      await until('the first leads', () => first.role === 'leading');
      const second = ProjectionLeader.start(store, { pollMs: 50 });
      const oneOff = await postgresProjections(store);
      try {
        expect(oneOff.leading).toBe(false);
        await new Promise((done) => setTimeout(done, 200));
        expect(second.role).toBe('waiting');
        await first.stop();
        await until('the second leads', () => second.role === 'leading');
        expect(
          await rawQuery(
            url,
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'teamlog-projection-lead' AND datname = current_database()",
          ),
        ).toEqual([{ n: 1 }]);
      } finally {
        await oneOff.release();
        await second.stop();
        await first.stop();
      }
      expect(
        await rawQuery(
          url,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'teamlog-projection-lead' AND datname = current_database()",
        ),
      ).toEqual([{ n: 0 }]);
    }));
});
