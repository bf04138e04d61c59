import { resolve } from 'node:path';
import { type MessageId, type SessionId, type TeamId, uuidV7Ids } from '@teamlog/events';
import { createTestDatabase, startThrowawayCluster } from '@teamlog/postgres-testing';
import type { RecordedEvent } from '@teamlog/store';
import { type PostgresEventStore, openPostgresStore } from '@teamlog/store-postgres';
import { createTeamLog } from '@teamlog/team';
import { type RunningChild, runChild, untilLines } from '../support/child-process';
import { startedTeam, streamOf } from '@teamlog/test-support/team-fixture';
import { testPostgresUrl } from '../support/postgres-server';

/* Team sends from real processes through createTeamLog on the real PostgreSQL server: contention, a sender killed, a server restart. */

const sender = (url: string, teamId: TeamId, as: string, targets: readonly string[], count: number): RunningChild =>
  runChild(resolve(__dirname, 'postgres-sender-child.js'), [url, teamId, as, targets.join(','), String(count)]);

/** Ids the process reported as accepted (send returned), in its order. */
const reportedBy = (child: RunningChild): MessageId[] =>
  child.lines.flatMap((line) => (line.startsWith('ok ') ? [line.slice(3) as MessageId] : []));
const failuresOf = (child: RunningChild): string[] => child.lines.filter((line) => line.startsWith('failed '));

const acceptedIds = (events: readonly RecordedEvent[]): MessageId[] =>
  events.flatMap((event) =>
    event.type === 'teamlog/inbox/accepted' ? [(event.data as { message: { id: MessageId } }).message.id] : [],
  );

const dense = (events: readonly RecordedEvent[]): boolean =>
  events.every((event, index) => event.revision === BigInt(index));

const exitedCleanly = async (children: readonly RunningChild[]): Promise<void> => {
  const codes = await Promise.all(children.map((child) => child.exited));
  expect({ codes, stderr: children.map((child) => child.stderr()).join('') }).toEqual({
    codes: children.map(() => 0),
    stderr: '',
  });
};

/** A team on the database: the Lead and these members, all started and idle. */
const teamOn = async (
  url: string,
  ...names: string[]
): Promise<{ readonly teamId: TeamId; readonly sessionOf: (name: string) => SessionId }> => {
  const store = await openPostgresStore(url);
  try {
    const teamlog = createTeamLog({ store, ids: uuidV7Ids });
    const team = await startedTeam(teamlog, ...names);
    await teamlog.dispose();
    return {
      teamId: team.lead.teamId,
      sessionOf: (name) => {
        const member = team.members[name];
        if (member === undefined) throw new Error(`no member ${name}`);
        return member.sessionId;
      },
    };
  } finally {
    await store.close();
  }
};

const withStore = async <T>(url: string, run: (store: PostgresEventStore) => Promise<T>): Promise<T> => {
  const store = await openPostgresStore(url);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
};

describe('Team sends from processes on the real PostgreSQL server', () => {
  it("4 processes x 1,000 sends into two shared targets: every id accepted once, no gap, each sender's order kept per target", async () => {
    const database = await createTestDatabase(testPostgresUrl(), 'sends');
    try {
      const team = await teamOn(database.url, 's1', 's2', 's3', 't1', 't2');
      const senders = ['lead', 's1', 's2', 's3'].map((as) =>
        sender(database.url, team.teamId, as, ['t1', 't2'], 1_000),
      );
      await exitedCleanly(senders);
      expect(senders.flatMap(failuresOf)).toEqual([]);
      await withStore(database.url, async (store) => {
        const targets = [await streamOf(store, team.sessionOf('t1')), await streamOf(store, team.sessionOf('t2'))];
        targets.forEach((events) => expect(dense(events)).toBe(true));
        const accepted = targets.flatMap(acceptedIds);
        const reported = senders.flatMap(reportedBy);
        expect(reported).toHaveLength(4_000);
        expect(new Set(accepted).size).toBe(accepted.length);
        expect([...accepted].sort()).toEqual([...reported].sort());
        for (const child of senders) {
          const mine = reportedBy(child);
          for (const events of targets) {
            const inTarget = new Set(acceptedIds(events));
            expect(acceptedIds(events).filter((id) => mine.includes(id))).toEqual(
              mine.filter((id) => inTarget.has(id)),
            );
          }
        }
      });
    } finally {
      await database.drop();
    }
  }, 300_000);

  it('a sender killed with SIGKILL mid-loop: every id it reported is in the target exactly once, at most its one send in flight besides', async () => {
    const database = await createTestDatabase(testPostgresUrl(), 'sends_kill');
    try {
      const team = await teamOn(database.url, 'researcher', 'reviewer');
      const victim = sender(database.url, team.teamId, 'researcher', ['reviewer'], 100_000);
      const steady = sender(database.url, team.teamId, 'lead', ['reviewer'], 200);
      await untilLines(victim, 150);
      victim.child.kill('SIGKILL');
      await victim.exited;
      await exitedCleanly([steady]);
      await withStore(database.url, async (store) => {
        const events = await streamOf(store, team.sessionOf('reviewer'));
        expect(dense(events)).toBe(true);
        const accepted = acceptedIds(events);
        expect(new Set(accepted).size).toBe(accepted.length);
        const reported = [...reportedBy(victim), ...reportedBy(steady)];
        for (const id of reported) expect(accepted.filter((candidate) => candidate === id)).toEqual([id]);
        expect(accepted.length - reported.length).toBeLessThanOrEqual(1);
        // The killed sender's connection and its locks are gone: the target still takes sends.
        const teamlog = createTeamLog({ store, ids: uuidV7Ids });
        const lead = await teamlog.openLead(team.teamId);
        await expect(lead.send({ target: 'reviewer', message: 'after the crash' })).resolves.toEqual(
          expect.any(String),
        );
        await teamlog.dispose();
      });
    } finally {
      await database.drop();
    }
  }, 180_000);

  it('the server restarted mid-run (pg_ctl restart): every send returned an id that is stored once, or threw; nothing accepted is lost', async () => {
    const cluster = await startThrowawayCluster();
    try {
      const { url } = await createTestDatabase(cluster.url, 'sends_restart');
      const team = await teamOn(url, 's1', 's2', 't1', 't2');
      const senders = ['lead', 's1', 's2'].map((as) => sender(url, team.teamId, as, ['t1', 't2'], 400));
      await Promise.all(senders.map((child) => untilLines(child, 60)));
      await cluster.restart();
      await exitedCleanly(senders);
      // The restart happened under the senders: their stores retried or reconnected.
      expect(
        senders.flatMap((child) => child.lines).some((line) => line.startsWith('log ') && /retry|reconnect/.test(line)),
      ).toBe(true);
      await withStore(url, async (store) => {
        const targets = [await streamOf(store, team.sessionOf('t1')), await streamOf(store, team.sessionOf('t2'))];
        targets.forEach((events) => expect(dense(events)).toBe(true));
        const accepted = targets.flatMap(acceptedIds);
        expect(new Set(accepted).size).toBe(accepted.length);
        const reported = senders.flatMap(reportedBy);
        const failed = senders.flatMap(failuresOf);
        expect(reported.length + failed.length).toBe(1_200);
        const stored = new Set(accepted);
        expect(reported.filter((id) => !stored.has(id))).toEqual([]);
        // A send that threw may still have been accepted (its outcome was unknown to it), never more than those.
        expect(accepted.length - reported.length).toBeLessThanOrEqual(failed.length);
      });
    } finally {
      await cluster.stop();
    }
  }, 240_000);
});
