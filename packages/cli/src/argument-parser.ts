import { Either, left, right } from 'fp-ts/Either';
import { UsageError } from './cli-errors';

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
export const valueFlag = (valueName: string, description: string): ValueFlag => ({ kind: 'value', valueName, description });

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

const usage = (syntax: CommandSyntax<FlagSpecs>, message: string): Either<UsageError, never> => left(new UsageError(message, syntax.name));

const countRange = (positionals: readonly PositionalSpec[]): { readonly min: number; readonly max: number } => ({
  min: positionals.filter((spec) => spec.arity !== 'optional').length,
  max: positionals.some((spec) => spec.arity === 'many') ? Number.POSITIVE_INFINITY : positionals.length,
});

const checkPositionals = (syntax: CommandSyntax<FlagSpecs>, positionals: readonly string[]): Either<UsageError, readonly string[]> => {
  const { min, max } = countRange(syntax.positionals);
  if (positionals.length < min) {
    const missing = syntax.positionals[positionals.length]?.name ?? 'argument';
    return usage(syntax, `${syntax.name}: missing <${missing}>`);
  }
  if (positionals.length > max) return usage(syntax, `${syntax.name}: unexpected argument "${positionals[max] ?? ''}"`);
  return right(positionals);
};

/** `--name=value` or `--name`; `-h` is `--help`. */
const splitFlag = (argument: string): { readonly name: string; readonly inline: string | undefined } => {
  if (argument === '-h') return { name: 'help', inline: undefined };
  const body = argument.slice(2);
  const equals = body.indexOf('=');
  return equals < 0 ? { name: body, inline: undefined } : { name: body.slice(0, equals), inline: body.slice(equals + 1) };
};

const isFlag = (argument: string): boolean => argument === '-h' || (argument.startsWith('--') && argument.length > 2);

/**
 * Parse one command's arguments: flags anywhere (`--flag value`, `--flag=value`), positionals in
 * order, `--` ends the flags. Unknown flags, missing values, repeated flags and a wrong number of
 * positionals are usage errors.
 */
export const parseArguments = <F extends FlagSpecs>(syntax: CommandSyntax<F>, argv: readonly string[]): Either<UsageError, ParsedArguments<F>> => {
  const values: Record<string, boolean | string | undefined> = {};
  for (const [name, spec] of Object.entries(syntax.flags)) values[name] = spec.kind === 'boolean' ? false : undefined;
  const positionals: string[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    if (argument === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (/^-[A-Za-z]/.test(argument) && argument !== '-h') return usage(syntax, `${syntax.name}: unknown flag ${argument} (flags are spelled --name)`);
    if (!isFlag(argument)) {
      positionals.push(argument);
      continue;
    }
    const { name, inline } = splitFlag(argument);
    const spec = syntax.flags[name];
    if (spec === undefined) return usage(syntax, `${syntax.name}: unknown flag --${name}`);
    if (seen.has(name)) return usage(syntax, `${syntax.name}: --${name} given twice`);
    seen.add(name);
    if (spec.kind === 'boolean') {
      if (inline !== undefined) return usage(syntax, `${syntax.name}: --${name} takes no value`);
      values[name] = true;
      continue;
    }
    const value = inline ?? argv[index + 1];
    if (value === undefined || (inline === undefined && isFlag(value))) return usage(syntax, `${syntax.name}: --${name} needs a value ${spec.valueName}`);
    if (value === '') return usage(syntax, `${syntax.name}: --${name} needs a non-empty ${spec.valueName}`);
    if (inline === undefined) index += 1;
    values[name] = value;
  }
  // `--help` wins over missing positionals: the person asked how to call the command.
  if (values['help'] === true) return right({ positionals, flags: values as FlagValues<F> });
  const checked = checkPositionals(syntax, positionals);
  return checked._tag === 'Left' ? checked : right({ positionals: checked.right, flags: values as FlagValues<F> });
};
