import { usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { cliVersion } from './cli-version';
import type { Command } from './command';
import { commandRegistry } from './commands/command-registry';
import { reportError } from './error-report';
import { ExitCode } from './exit-code';
import { commandHelp, generalHelp } from './help-text';
import { type CommandEntry, loadCommand } from './lazy-command';

const helpWords = new Set(['help', '--help', '-h']);

const stackOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause === undefined ? '' : `\nCaused by: ${stackOf(error.cause)}`;
  return `${error.stack ?? error.message}${cause}`;
};

/** Every command's syntax, for the general help: the one place every command's module is loaded. */
const syntaxes = async (commands: readonly CommandEntry[]) =>
  (await Promise.all(commands.map(loadCommand))).map((command: Command) => command.syntax);

const help = async (io: CliIo, commands: readonly CommandEntry[], topic: string | undefined): Promise<ExitCode> => {
  const entry = commands.find((candidate) => candidate.name === topic);
  if (topic !== undefined && entry === undefined) throw usageError(`no command "${topic}"`);
  io.stdout(
    entry === undefined ? generalHelp(await syntaxes(commands)) : commandHelp((await loadCommand(entry)).syntax),
  );
  return ExitCode.ok;
};

/** `teamlog <command> ...`: dispatch, and turn every error into one line and an exit code. */
export const runCli = async (
  argv: readonly string[],
  io: CliIo,
  commands: readonly CommandEntry[] = commandRegistry,
): Promise<ExitCode> => {
  const debug = argv.includes('--debug');
  try {
    const [name, ...rest] = argv;
    if (name === undefined) {
      io.stderr(generalHelp(await syntaxes(commands)));
      return ExitCode.usage;
    }
    if (helpWords.has(name)) return await help(io, commands, rest[0]);
    if (name === '--version') {
      io.stdout(`${cliVersion()}\n`);
      return ExitCode.ok;
    }
    const entry = commands.find((candidate) => candidate.name === name);
    if (entry === undefined) throw usageError(`unknown command "${name}"`);
    return await (await loadCommand(entry)).execute(rest, { io });
  } catch (error) {
    const report = reportError(error);
    io.stderr(`teamlog: ${report.line}\n`);
    if (debug) io.stderr(`${stackOf(error)}\n`);
    return report.exitCode;
  }
};
