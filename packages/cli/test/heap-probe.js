// Loaded with `node -r` into a `teamlog` process under test: at exit, reports on stderr how V8's
// heap was sized in the process that did the work, as one line `heap-probe {json}`; with
// --expose-gc it also runs one full collection there first, so that --trace-gc-verbose prints the
// old generation's growing factor V8 applies after it (`[HeapController] Limit: ... (1.2)`).
const { getHeapSpaceStatistics } = require('node:v8');

process.on('exit', () => {
  if (typeof global.gc === 'function') global.gc();
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  process.stderr.write(
    `heap-probe ${JSON.stringify({ newSpaceBytes: newSpace?.space_size, execArgv: process.execArgv })}\n`,
  );
});
