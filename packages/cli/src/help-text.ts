import type { CommandSyntax, FlagSpec, FlagSpecs, PositionalSpec } from './argument-parser';

const positionalLabel = (spec: PositionalSpec): string =>
  spec.arity === 'many' ? `<${spec.name}...>` : spec.arity === 'optional' ? `[${spec.name}]` : `<${spec.name}>`;

const flagLabel = (name: string, spec: FlagSpec): string => {
  const long = spec.kind === 'value' ? `--${name} ${spec.valueName}` : `--${name}`;
  return name === 'help' ? `-h, ${long}` : long;
};

const aligned = (rows: ReadonlyArray<readonly [string, string]>): string[] => {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`);
};

export const usageLine = (syntax: CommandSyntax<FlagSpecs>): string =>
  ['teamlog', syntax.name, ...syntax.positionals.map(positionalLabel), '[flags]'].join(' ');

/** `teamlog <command> --help`. */
export const commandHelp = (syntax: CommandSyntax<FlagSpecs>): string => {
  const lines = [`Usage: ${usageLine(syntax)}`, '', syntax.summary];
  if (syntax.positionals.length > 0) {
    lines.push(
      '',
      'Arguments:',
      ...aligned(syntax.positionals.map((spec) => [positionalLabel(spec), spec.description] as const)),
    );
  }
  lines.push(
    '',
    'Flags:',
    ...aligned(Object.entries(syntax.flags).map(([name, spec]) => [flagLabel(name, spec), spec.description] as const)),
  );
  if (syntax.notes !== undefined && syntax.notes.length > 0) lines.push('', ...syntax.notes);
  return `${lines.join('\n')}\n`;
};

/** `teamlog --help`: every command with its summary. */
export const generalHelp = (commands: readonly CommandSyntax<FlagSpecs>[]): string =>
  [
    'teamlog: replay, audit and serve the session logs of AI agent teams.',
    '',
    'Usage: teamlog <command> [arguments] [flags]',
    '',
    'Commands:',
    ...aligned(commands.map((syntax) => [syntax.name, syntax.summary.split('\n')[0] ?? ''] as const)),
    '',
    'Run "teamlog <command> --help" for its arguments and flags, "teamlog --version" for the version.',
    'The store is chosen by --store or $TEAMLOG_STORE (default .teamlog/teamlog.db). Exit codes: 0 ok,',
    '1 findings with --strict, 2 usage, 3 bad input, 4 store or internal failure. Documentation:',
    'docs/user-guide.md.',
    '',
  ].join('\n');
