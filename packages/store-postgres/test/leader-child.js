// A projection runner process for the leader tests, on the compiled adapter (npm test builds first):
//   leader-child.js <url> <batchSize> [crashAtCommit]
// Prints its role each time it changes ("waiting", "leading", "stopped"); SIGTERM stops it cleanly.
// With crashAtCommit, it kills itself with SIGKILL inside that commit's transaction, after the views
// are written and before the checkpoint is.
const { resolve } = require('node:path');
const { openPostgresStore, ProjectionLeader } = require(resolve(__dirname, '../dist/index.js'));

const print = (line) => process.stdout.write(`${line}\n`);
const [url, batchSize, crashAtCommit] = process.argv.slice(2);
let commits = 0;
const onViewsWritten = () => {
  commits += 1;
  if (commits === Number(crashAtCommit)) process.kill(process.pid, 'SIGKILL');
};

(async () => {
  const store = await openPostgresStore(url, { log: (line) => print(`log ${line}`) });
  const leader = ProjectionLeader.start(store, {
    batchSize: Number(batchSize),
    pollMs: 200,
    onRole: print,
    onViewsWritten,
  });
  process.once('SIGTERM', () => {
    leader
      .stop()
      .then(() => store.close())
      .then(
        () => process.exit(0),
        (error) => {
          console.error(error?.stack ? error.stack : error);
          process.exit(1);
        },
      );
  });
})().catch((error) => {
  console.error(error?.stack ? error.stack : error);
  process.exit(1);
});
