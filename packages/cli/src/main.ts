/* The `teamlog` executable (bin/teamlog.js loads this file): the process wiring around runCli. */
import { processIo } from './cli-io';
import { runCli } from './run-cli';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // The reader went away (`teamlog replay --json | head`): stop quietly, as a SIGPIPE would.
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
