/* The `teamlog` executable (bin/teamlog.js loads this file): the process wiring around runCli. */
import { holdYoungGeneration } from './young-generation';

// Before the commands load, or loading them grows the young generation (young-generation.ts).
holdYoungGeneration();

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // The reader went away (`teamlog replay --json | head`): stop quietly, as a SIGPIPE would.
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

void Promise.all([import('./cli-io'), import('./run-cli')]).then(async ([{ processIo }, { runCli }]) => {
  process.exitCode = await runCli(process.argv.slice(2), processIo());
});
