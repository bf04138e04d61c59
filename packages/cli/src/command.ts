import { isLeft } from 'fp-ts/Either';
import { type CommandSyntax, type FlagSpecs, type ParsedArguments, parseArguments } from './argument-parser';
import type { CliIo } from './cli-io';
import { type UniversalFlags, universalFlags } from './common-flags';
import { ExitCode } from './exit-code';
import { commandHelp } from './help-text';

export interface CommandContext {
  readonly io: CliIo;
}

/** One `teamlog` command: its syntax (for help) and how to run it on raw arguments. */
export interface Command {
  /** The word that runs it (`syntax.name`), known without loading a lazy command's module. */
  readonly name: string;
  readonly syntax: CommandSyntax<FlagSpecs>;
  readonly execute: (argv: readonly string[], context: CommandContext) => Promise<ExitCode>;
}

export type CommandRun<F extends FlagSpecs> = (
  args: ParsedArguments<F & UniversalFlags>,
  context: CommandContext,
) => Promise<ExitCode>;

/** A command whose arguments are parsed against its syntax plus `--help` and `--debug`. */
export const defineCommand = <F extends FlagSpecs>(syntax: CommandSyntax<F>, run: CommandRun<F>): Command => {
  const full: CommandSyntax<F & UniversalFlags> = { ...syntax, flags: { ...syntax.flags, ...universalFlags } };
  return {
    name: syntax.name,
    syntax: full,
    execute: async (argv, context) => {
      const parsed = parseArguments(full, argv);
      if (isLeft(parsed)) throw parsed.left;
      if (parsed.right.flags.help) {
        context.io.stdout(commandHelp(full));
        return ExitCode.ok;
      }
      return run(parsed.right, context);
    },
  };
};
