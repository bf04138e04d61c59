// A sending process for the PostgreSQL send tests, on the compiled packages (npm test builds first):
//   postgres-sender-child.js <url> <teamId> <as> <targets, comma-separated> <count>
// Sends `count` Team messages as `as`, to the targets in turn, through createTeamLog on the
// PostgreSQL store, and prints "ok <id>" when send returns and "failed <error name>" when it throws
// (then carries on). The store's log lines (retries, reconnects) are printed as "log <line>".
const { resolve } = require('node:path');
const dist = (pkg) => resolve(__dirname, `../../packages/${pkg}/dist/index.js`);
const { createTeamLog } = require(dist('team'));
const { openPostgresStore } = require(dist('store-postgres'));
const { uuidV7Ids } = require(dist('events'));

const print = (line) => process.stdout.write(`${line}\n`);
const [url, teamId, as, targets, count] = process.argv.slice(2);

(async () => {
  const store = await openPostgresStore(url, {
    retry: { initialDelayMs: 50, maxDelayMs: 1000, maxAttempts: 40 },
    log: (line) => print(`log ${line}`),
  });
  const teamlog = createTeamLog({ store, ids: uuidV7Ids });
  const session = as === 'lead' ? await teamlog.openLead(teamId) : await teamlog.openMember(teamId, as);
  const to = targets.split(',');
  for (let n = 0; n < Number(count); n += 1) {
    try {
      const id = await session.send({ target: to[n % to.length], message: `${as} #${n}` });
      print(`ok ${id}`);
    } catch (error) {
      print(`failed ${error?.name}`);
    }
  }
  await teamlog.dispose();
  await store.close();
})().catch((error) => {
  console.error(error?.stack ? error.stack : error);
  process.exit(1);
});
