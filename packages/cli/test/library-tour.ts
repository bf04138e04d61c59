/* The library tour of README.md, kept here so the test suite type-checks and runs it (library-tour.int.test.ts). */
// README:begin
import { importSessionLogs } from '@teamlog/dsh';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { createTeamLog } from '@teamlog/team';

export async function tour(storeFile: string, logs: string): Promise<void> {
  const store = SqliteEventStore.open(storeFile); // the embedded store: one SQLite file

  // 1. Import historical logs (idempotent) and read the views folded from them.
  const report = await importSessionLogs(logs, store);
  console.log(`${report.imported} logs imported, ${report.appended} events appended`);
  const projections = await sqliteProjections(store); // views live in the same file
  await projections.catchUp();
  for (const team of projections.views().teams()) {
    const undelivered = team.legacyMessages.filter((message) => message.status === 'undelivered');
    console.log(
      team.teamId,
      team.members.map((member) => member.name),
      `${undelivered.length} undelivered`,
    );
  }

  // 2. Run a team: send returns the id the target's inbox accepted, durably, in the target's own stream.
  const teamlog = createTeamLog({ store });
  const lead = await teamlog.createTeam();
  const reviewer = await lead.spawnMember({ name: 'reviewer', description: 'reviews the importer' });
  const messageId = await lead.send({ target: 'reviewer', message: 'Please review the importer.' });
  const { inbox } = await teamlog.session(reviewer.sessionId);
  console.log(
    messageId,
    inbox.map((entry) => `${entry.id} ${entry.status}`),
  );

  await teamlog.dispose();
  await store.close();
}
// README:end
