import { resolve } from 'node:path';
import { type SessionId, type TeamId, sequentialIds } from '@teamlog/events';
import { importSessionLogs } from '@teamlog/dsh';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { fixedClock, fixture, member, startedTeam } from '@teamlog/test-support/team-fixture';
import { tempStoreFile } from './temp-store-file';

const mailboxEra = resolve(__dirname, '../../../fixtures/synthetic/v0-mailbox');

/** Every stream's last revision: a historical stream must end where the import left it. */
const heads = (store: SqliteEventStore) =>
  new Map(store.listStreams().map((stream) => [stream.streamName, stream.lastRevision]));

/*
 * The engine over a store that also holds imported mailbox-era logs: those sessions are history,
 * read-only. Opening their team, sending to them or reporting their loop is refused with a typed
 * error, and nothing is ever appended to their streams.
 */
describe('the Team service over imported historical logs', () => {
  it('refuses to open the historical team, to send to a historical session and to begin its turn, and never appends to a historical stream', async () => {
    const { file, cleanup } = tempStoreFile();
    const store = SqliteEventStore.open(file);
    try {
      const report = await importSessionLogs(mailboxEra, store);
      expect(report.imported).toBeGreaterThanOrEqual(3);
      const historical = heads(store);
      const lead = 'v0-lead' as SessionId;
      const { teamlog } = fixture(store, { clock: fixedClock(), ids: sequentialIds('h') });

      await expect(teamlog.openLead(lead as string as TeamId)).rejects.toMatchObject({ code: 'TeamNotFound' });
      await expect(teamlog.openMember(lead as string as TeamId, 'v0-reviewer')).rejects.toMatchObject({
        code: 'TeamNotFound',
      });
      await expect(teamlog.runtime('v0-reviewer' as SessionId).beginTurn()).rejects.toMatchObject({
        code: 'SessionNotFound',
      });
      await expect(teamlog.runtime(lead).start()).rejects.toMatchObject({ code: 'SessionNotFound' });

      const team = await startedTeam(teamlog, 'researcher');
      await expect(team.lead.send({ target: 'v0-reviewer', message: 'are you there?' })).rejects.toMatchObject({
        code: 'UnknownTarget',
      });
      await expect(member(team, 'researcher').send({ target: lead, message: 'hello, old Lead' })).rejects.toMatchObject(
        { code: 'UnknownTarget' },
      );

      for (const [stream, revision] of historical)
        expect([stream, heads(store).get(stream)]).toEqual([stream, revision]);
    } finally {
      await store.close();
      cleanup();
    }
  });
});

describe('attribution by capability', () => {
  it('given a Lead handle, then it can spawn and address members but holds no member handle: nothing it does is attributed to a member', async () => {
    const { teamlog } = fixture();
    const lead = await teamlog.createTeam();
    await teamlog.runtime(lead.sessionId).start();
    const spawned = await lead.spawnMember({ name: 'reviewer', description: 'reviews' });
    await teamlog.runtime(spawned.sessionId).start();
    expect(Reflect.ownKeys(spawned).sort()).toEqual(['name', 'sessionId', 'teamId']);
    expect('member' in lead).toBe(false);
    // @ts-expect-error the Lead's handle has no way to a member's handle
    expect(lead.member).toBeUndefined();
    await lead.send({ target: 'reviewer', message: 'from the Lead' });
    const { inbox } = await teamlog.session(spawned.sessionId);
    expect(inbox.map((entry) => entry.source)).toEqual([
      { kind: 'team-relay', form: 'relay', senderSessionId: lead.sessionId, senderName: 'lead' },
    ]);
    // Only the host composition hands out the member's handle; what it sends is the member's.
    const reviewer = await teamlog.openMember(lead.teamId, 'reviewer');
    await reviewer.send({ target: 'lead', message: 'from the reviewer' });
    const leadInbox = (await teamlog.session(lead.sessionId)).inbox;
    expect(leadInbox.map((entry) => entry.source)).toEqual([
      { kind: 'team-relay', form: 'relay', senderSessionId: spawned.sessionId, senderName: 'reviewer' },
    ]);
  });

  it('given an onAccepted listener that throws, then the acceptance stands: the send returns its id, the message is in the inbox, and the error is reported', async () => {
    const reported: unknown[] = [];
    const { teamlog } = fixture(undefined, {
      onAccepted: () => {
        throw new Error('listener broke');
      },
      onListenerError: (error) => reported.push(error),
    });
    const team = await startedTeam(teamlog, 'reviewer');
    const id = await team.lead.send({ target: 'reviewer', message: 'still accepted' });
    const { inbox } = await teamlog.session(member(team, 'reviewer').sessionId);
    expect(inbox.map((entry) => entry.id)).toEqual([id]);
    expect(reported).toEqual([new Error('listener broke')]);
  });
});
