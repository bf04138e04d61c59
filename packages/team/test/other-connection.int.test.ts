import { sequentialIds, uuidV7Ids } from '@teamlog/events';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { fixture, member, startedTeam } from '@teamlog/test-support/team-fixture';
import { tempStoreFile } from './temp-store-file';

/*
 * Two SQLite connections on one file stand for two processes. A fold that skips reading because the
 * store knows a stream's head must still see what the other connection wrote (PRAGMA data_version).
 */
describe('folds over a SQLite file another connection writes', () => {
  it('given a target and a sender closed through another connection, when this TeamLog sends, then it reads them again and refuses', async () => {
    const { file, cleanup } = tempStoreFile();
    const here = SqliteEventStore.open(file);
    const there = SqliteEventStore.open(file);
    try {
      const { teamlog } = fixture(here);
      const team = await startedTeam(teamlog, 'researcher', 'implementer', 'reviewer');
      await member(team, 'researcher').send({ target: 'implementer', message: 'warm every fold' });
      const elsewhere = fixture(there, { ids: { ...sequentialIds('o'), eventId: uuidV7Ids.eventId } }).teamlog;
      await elsewhere.runtime(member(team, 'implementer').sessionId).close('killed');
      await expect(
        member(team, 'researcher').send({ target: 'implementer', message: 'too late' }),
      ).rejects.toMatchObject({ code: 'TargetClosed' });
      await elsewhere.runtime(member(team, 'researcher').sessionId).close('cancelled');
      await expect(
        member(team, 'researcher').send({ target: 'reviewer', message: 'from beyond' }),
      ).rejects.toMatchObject({ code: 'SenderClosed' });
      expect(await member(team, 'reviewer').send({ target: 'lead', message: 'still here' })).toEqual(
        expect.any(String),
      );
    } finally {
      await here.close();
      await there.close();
      cleanup();
    }
  });

  it('given only this connection wrote, then the store answers heads without reading; after another connection commits, it answers nothing until read', async () => {
    const { file, cleanup } = tempStoreFile();
    const here = SqliteEventStore.open(file);
    const there = SqliteEventStore.open(file);
    try {
      const { teamlog } = fixture(here);
      const team = await startedTeam(teamlog, 'researcher');
      const stream = `session-${team.lead.sessionId}` as Parameters<typeof here.knownRevision>[0];
      const head = await here.streamRevision(stream);
      expect(here.knownRevision(stream)).toEqual({ revision: head });
      await fixture(there, { ids: { ...sequentialIds('o'), eventId: uuidV7Ids.eventId } })
        .teamlog.runtime(team.lead.sessionId)
        .beginTurn();
      expect(here.knownRevision(stream)).toBeUndefined();
    } finally {
      await here.close();
      await there.close();
      cleanup();
    }
  });
});
