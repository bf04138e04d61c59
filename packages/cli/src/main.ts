/* The `teamlog` executable (bin/teamlog.js loads this file). */
import { processIo } from './cli-io';
import { runCli } from './run-cli';

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
