import { setTimeout as delay } from 'node:timers/promises';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { type MemberSession, createTeamLog } from '@teamlog/team';

/**
 * Run in its own process, as a team writing beside `teamlog serve`: opens the SQLite store file
 * `dbFile`, starts a Lead with three members, prints `ready`, then sends one Team message every
 * `intervalMs` (round robin between the members) until its stdin closes, and prints how many were
 * accepted as one JSON line.
 */
const [dbFile, intervalText] = process.argv.slice(2);
const intervalMs = Number(intervalText);

const main = async (): Promise<void> => {
  const store = SqliteEventStore.open(dbFile ?? '');
  const teamlog = createTeamLog({ store });
  const lead = await teamlog.createTeam({ cwd: '/bench/live' });
  await teamlog.runtime(lead.sessionId).start();
  const members: MemberSession[] = [];
  for (const name of ['live-1', 'live-2', 'live-3']) {
    const spawned = await lead.spawnMember({
      name,
      description: 'writes while the dashboard is read',
      provider: 'bench',
    });
    await teamlog.runtime(spawned.sessionId).start();
    members.push(await teamlog.openMember(lead.teamId, spawned.sessionId));
  }
  let open = true;
  process.stdin.on('end', () => {
    open = false;
  });
  process.stdin.resume();
  process.stdout.write('ready\n');
  let sent = 0;
  while (open) {
    const sender = members[sent % 3] as MemberSession;
    const target = members[(sent + 1) % 3] as MemberSession;
    await sender.send({ target: target.name, message: `live note ${sent} from ${sender.name}` });
    sent += 1;
    await delay(intervalMs);
  }
  await teamlog.dispose();
  await store.close();
  process.stdout.write(`${JSON.stringify({ sent })}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
