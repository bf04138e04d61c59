import { usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { cliVersion } from './cli-version';
import type { Command } from './command';
import { commandList } from './commands/command-list';
import { reportError } from './error-report';
import { ExitCode } from './exit-code';
import { commandHelp, generalHelp } from './help-text';

const helpWords = new Set(['help', '--help', '-h']);

const stackOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause === undefined ? '' : `\nCaused by: ${stackOf(error.cause)}`;
  return `${error.stack ?? error.message}${cause}`;
};

const help = (io: CliIo, commands: readonly Command[], topic: string | undefined): ExitCode => {
  const command = commands.find((candidate) => candidate.syntax.name === topic);
  if (topic !== undefined && command === undefined) throw usageError(`no command "${topic}"`);
  io.stdout(command === undefined ? generalHelp(commands.map((each) => each.syntax)) : commandHelp(command.syntax));
  return ExitCode.ok;
};

/** `teamlog <command> ...`: dispatch, and turn every error into one line and an exit code. */
export const runCli = async (
  argv: readonly string[],
  io: CliIo,
  commands: readonly Command[] = commandList,
): Promise<ExitCode> => {
  const debug = argv.includes('--debug');
  try {
    const [name, ...rest] = argv;
    if (name === undefined) {
      io.stderr(generalHelp(commands.map((each) => each.syntax)));
      return ExitCode.usage;
    }
    if (helpWords.has(name)) return help(io, commands, rest[0]);
    if (name === '--version') {
      io.stdout(`${cliVersion()}\n`);
      return ExitCode.ok;
    }
    const command = commands.find((candidate) => candidate.syntax.name === name);
    if (command === undefined) throw usageError(`unknown command "${name}"`);
    return await command.execute(rest, { io });
  } catch (error) {
    const report = reportError(error);
    io.stderr(`teamlog: ${report.line}\n`);
    if (debug) io.stderr(`${stackOf(error)}\n`);
    return report.exitCode;
  }
};
