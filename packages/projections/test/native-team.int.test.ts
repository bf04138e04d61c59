import { sequentialIds } from '@teamlog/events';
import type { GlobalPosition } from '@teamlog/store';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { createTeamLog } from '@teamlog/team';

import { tempFile } from './temp-file';

/* teamlog's own team (the team service writing to a real SQLite file), read back through the views. */

describe('views over a team teamlog runs itself', () => {
  it('shows the roster with live statuses, every accepted send with its true sender, and no audit finding', async () => {
    const { file, cleanup } = tempFile();
    const store = SqliteEventStore.open(file);
    let tick = Date.UTC(2026, 9, 10);
    const teamlog = createTeamLog({ store, ids: sequentialIds('n'), clock: () => new Date((tick += 1000)) });
    const lead = await teamlog.createTeam();
    await teamlog.runtime(lead.sessionId).start();
    const reviewer = await lead.spawnMember({ name: 'reviewer', description: 'reviews', provider: 'scripted' });
    await teamlog.runtime(reviewer.sessionId).start();
    await lead.spawnMember({ name: 'writer', description: 'writes', provider: 'scripted' });

    const projections = await sqliteProjections(store, { batchSize: 3 });
    projections.start();
    const toReviewer = await lead.send({ target: 'reviewer', message: 'Please review.' });
    await teamlog.runtime(reviewer.sessionId).beginTurn();
    const toLead = await (await teamlog.openMember(lead.teamId, 'reviewer')).send({
      target: 'lead',
      message: 'Looks good.',
    });
    await teamlog.runtime(reviewer.sessionId).endTurn();
    await teamlog.dispose();
    let last: GlobalPosition | undefined;
    for await (const event of store.readAll()) last = event.position;
    await projections.waitFor(last as GlobalPosition);
    await projections.stop();
    const views = projections.views();

    const [team] = views.teams();
    expect(team?.teamId).toBe(lead.teamId);
    expect(team?.members.map((m) => [m.name, m.phase, m.status])).toEqual([
      ['reviewer', 'active', 'idle'],
      ['writer', 'active', 'provisioning'],
    ]);
    const peer = views
      .inbox({ peerOnly: true })
      .map((entry) => [
        entry.sessionId,
        entry.messageId,
        entry.sourceKind,
        entry.senderSessionId,
        entry.senderName,
        entry.origin,
      ]);
    expect(peer).toHaveLength(2);
    expect(peer).toEqual(
      expect.arrayContaining([
        [lead.sessionId, toLead, 'team-relay', reviewer.sessionId, 'reviewer', 'accepted'],
        [reviewer.sessionId, toReviewer, 'team-relay', lead.sessionId, 'lead', 'accepted'],
      ]),
    );
    expect(views.audit()).toEqual([]);
    await store.close();
    cleanup();
  });
});
