import { resolve } from 'node:path';

/* Scripts for runInlineChild (test/support/child-process): they run the compiled packages (npm test builds before jest), as a real host would. */

const dist = (pkg: string) => resolve(__dirname, `../../${pkg}/dist/index.js`);

const prelude = `
const { createTeamLog } = require(${JSON.stringify(dist('team'))});
const { SqliteEventStore } = require(${JSON.stringify(dist('store-sqlite'))});
const { uuidV7Ids } = require(${JSON.stringify(dist('events'))});
const fail = (error) => { console.error(error && error.stack || error); process.exit(1); };
const open = async (file, teamId, as) => {
  const store = SqliteEventStore.open(file);
  const teamlog = createTeamLog({ store, ids: uuidV7Ids });
  const session = as === 'lead' ? await teamlog.openLead(teamId) : await teamlog.openMember(teamId, as);
  return { store, teamlog, session };
};
`;

/** Sends `count` messages as `as` to `target`, printing each accepted id as soon as send returns. */
export const sendLoopScript = `${prelude}
const [file, teamId, as, target, count] = process.argv.slice(1);
(async () => {
  const { store, teamlog, session } = await open(file, teamId, as);
  for (let n = 0; n < Number(count); n += 1) {
    const id = await session.send({ target, message: as + ' #' + n });
    process.stdout.write(id + '\\n');
  }
  await teamlog.dispose();
  await store.close();
})().catch(fail);
`;

/** Sends one message, prints its id, then waits to be killed: the message is accepted, never claimed. */
export const sendThenHangScript = `${prelude}
const [file, teamId, as, target] = process.argv.slice(1);
(async () => {
  const { session } = await open(file, teamId, as);
  const id = await session.send({ target, message: 'accepted before the crash' });
  process.stdout.write(id + '\\n');
  setInterval(() => undefined, 1000);
})().catch(fail);
`;
