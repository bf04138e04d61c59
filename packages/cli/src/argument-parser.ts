import { parseArgs } from 'node:util';
import { type Either, left, right } from 'fp-ts/Either';
import { usageError, type UsageError } from './cli-errors';

export interface BooleanFlag {
  readonly kind: 'boolean';
  readonly description: string;
}

export interface ValueFlag {
  readonly kind: 'value';
  /** How the help names the value: `FILE`, `N`, ... */
  readonly valueName: string;
  readonly description: string;
}

export type FlagSpec = BooleanFlag | ValueFlag;
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

export const booleanFlag = (description: string): BooleanFlag => ({ kind: 'boolean', description });
export const valueFlag = (valueName: string, description: string): ValueFlag => ({
  kind: 'value',
  valueName,
  description,
});

/** `--json` is a boolean, `--store FILE` a string that may be absent. */
export type FlagValues<F extends FlagSpecs> = {
  readonly [K in keyof F]: F[K] extends BooleanFlag ? boolean : string | undefined;
};

export type Arity = 'one' | 'optional' | 'many';

export interface PositionalSpec {
  readonly name: string;
  readonly arity: Arity;
  readonly description: string;
}

export interface CommandSyntax<F extends FlagSpecs> {
  readonly name: string;
  readonly summary: string;
  readonly positionals: readonly PositionalSpec[];
  readonly flags: F;
  /** Lines shown under the flags in `--help`. */
  readonly notes?: readonly string[];
}

export interface ParsedArguments<F extends FlagSpecs> {
  readonly positionals: readonly string[];
  readonly flags: FlagValues<F>;
}

const usage = (syntax: CommandSyntax<FlagSpecs>, message: string): Either<UsageError, never> =>
  left(usageError(message, syntax.name));

const countRange = (positionals: readonly PositionalSpec[]): { readonly min: number; readonly max: number } => ({
  min: positionals.filter((spec) => spec.arity !== 'optional').length,
  max: positionals.some((spec) => spec.arity === 'many') ? Number.POSITIVE_INFINITY : positionals.length,
});

const checkPositionals = (
  syntax: CommandSyntax<FlagSpecs>,
  positionals: readonly string[],
): Either<UsageError, readonly string[]> => {
  const { min, max } = countRange(syntax.positionals);
  if (positionals.length < min) {
    const missing = syntax.positionals[positionals.length]?.name ?? 'argument';
    return usage(syntax, `${syntax.name}: missing <${missing}>`);
  }
  if (positionals.length > max) return usage(syntax, `${syntax.name}: unexpected argument "${positionals[max] ?? ''}"`);
  return right(positionals);
};

type ParseArgsConfig = NonNullable<Parameters<typeof parseArgs>[0]>;
type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** util.parseArgs's option table: every flag is a long option; only help has a short form (-h). */
const optionsOf = (flags: FlagSpecs): NonNullable<ParseArgsConfig['options']> =>
  Object.fromEntries(
    Object.entries(flags).map(([name, spec]) => [
      name,
      {
        type: spec.kind === 'boolean' ? ('boolean' as const) : ('string' as const),
        ...(name === 'help' ? { short: 'h' } : {}),
      },
    ]),
  );

const looksLikeFlag = (argument: string): boolean =>
  argument === '-h' || (argument.startsWith('--') && argument.length > 2);

/** Our rules on one option token of util.parseArgs: a usage message, or undefined when it is fine. */
const checkOption = (
  syntax: CommandSyntax<FlagSpecs>,
  argv: readonly string[],
  token: Extract<Token, { kind: 'option' }>,
  seen: Set<string>,
): string | undefined => {
  const { name } = syntax;
  if (!token.rawName.startsWith('--') && token.rawName !== '-h')
    return `${name}: unknown flag ${argv[token.index] ?? token.rawName} (flags are spelled --name)`;
  const spec = syntax.flags[token.name];
  if (spec === undefined) return `${name}: unknown flag --${token.name}`;
  if (seen.has(token.name)) return `${name}: --${token.name} given twice`;
  seen.add(token.name);
  if (spec.kind === 'boolean') return token.value === undefined ? undefined : `${name}: --${token.name} takes no value`;
  // parseArgs takes the next word as the value even when it is a flag: that is a missing value here.
  if (token.value === undefined || (token.inlineValue === false && looksLikeFlag(token.value)))
    return `${name}: --${token.name} needs a value ${spec.valueName}`;
  if (token.value === '') return `${name}: --${token.name} needs a non-empty ${spec.valueName}`;
  return undefined;
};

/**
 * Parse one command's arguments with Node's util.parseArgs (flags anywhere, `--flag value` or
 * `--flag=value`, `--` ends the flags, `-h` is `--help`), then apply teamlog's rules to its
 * tokens: unknown flags, missing or empty values, repeated flags and a wrong number of
 * positionals are usage errors, each named.
 */
export const parseArguments = <F extends FlagSpecs>(
  syntax: CommandSyntax<F>,
  argv: readonly string[],
): Either<UsageError, ParsedArguments<F>> => {
  const { tokens } = parseArgs({
    args: [...argv],
    options: optionsOf(syntax.flags),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, boolean | string | undefined> = {};
  for (const [name, spec] of Object.entries(syntax.flags)) values[name] = spec.kind === 'boolean' ? false : undefined;
  const positionals: string[] = [];
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const problem = checkOption(syntax, argv, token, seen);
    if (problem !== undefined) return usage(syntax, problem);
    values[token.name] = syntax.flags[token.name]?.kind === 'boolean' ? true : token.value;
  }
  // `--help` wins over missing positionals: the person asked how to call the command.
  if (values.help === true) return right({ positionals, flags: values as FlagValues<F> });
  const checked = checkPositionals(syntax, positionals);
  return checked._tag === 'Left' ? checked : right({ positionals: checked.right, flags: values as FlagValues<F> });
};
