import { isLeft, isRight } from 'fp-ts/Either';
import { type CommandSyntax, booleanFlag, parseArguments, valueFlag } from '../src/argument-parser';

const flags = { json: booleanFlag('json'), store: valueFlag('FILE', 'store'), help: booleanFlag('help') };
const syntax: CommandSyntax<typeof flags> = {
  name: 'replay',
  summary: 'test',
  positionals: [{ name: 'path', arity: 'many', description: 'paths' }],
  flags,
};

const parsed = (argv: readonly string[]) => {
  const result = parseArguments(syntax, argv);
  if (isLeft(result)) throw new Error(`expected a parse, got: ${result.left.message}`);
  return result.right;
};

const usageMessage = (argv: readonly string[]): string => {
  const result = parseArguments(syntax, argv);
  if (isRight(result)) throw new Error('expected a usage error');
  return result.left.message;
};

describe('parseArguments', () => {
  it('given flags anywhere, then positionals keep their order and flags get typed values', () => {
    const args = parsed(['a', '--store', 'x.db', 'b', '--json']);
    // The types follow the spec: a boolean flag is a boolean, a value flag a string or undefined.
    const json: boolean = args.flags.json;
    const store: string | undefined = args.flags.store;
    expect(args.positionals).toEqual(['a', 'b']);
    expect(json).toBe(true);
    expect(store).toBe('x.db');
  });

  it('given no flags, then booleans are false and values undefined', () => {
    const args = parsed(['a']);
    expect(args.flags).toEqual({ json: false, store: undefined, help: false });
  });

  it('accepts --flag=value, including a value that starts with dashes', () => {
    expect(parsed(['a', '--store=--odd']).flags.store).toBe('--odd');
  });

  it('treats everything after -- as positionals', () => {
    expect(parsed(['--', '--json', '-x']).positionals).toEqual(['--json', '-x']);
  });

  it('reads -h as --help and skips the positional check, so help works without arguments', () => {
    expect(parsed(['-h']).flags.help).toBe(true);
  });

  it('rejects an unknown flag, naming it and the command', () => {
    expect(usageMessage(['a', '--frob'])).toBe('replay: unknown flag --frob');
  });

  it('rejects single-dash flags other than -h', () => {
    expect(usageMessage(['a', '-j'])).toContain('unknown flag -j');
  });

  it('rejects a value flag without its value, also when the next word is a flag', () => {
    expect(usageMessage(['a', '--store'])).toBe('replay: --store needs a value FILE');
    expect(usageMessage(['a', '--store', '--json'])).toBe('replay: --store needs a value FILE');
  });

  it('rejects an empty value', () => {
    expect(usageMessage(['a', '--store='])).toContain('non-empty FILE');
  });

  it('rejects a value given to a boolean flag', () => {
    expect(usageMessage(['a', '--json=yes'])).toBe('replay: --json takes no value');
  });

  it('rejects a flag given twice', () => {
    expect(usageMessage(['a', '--json', '--json'])).toBe('replay: --json given twice');
  });

  it('rejects a missing required positional by name', () => {
    expect(usageMessage(['--json'])).toBe('replay: missing <path>');
  });

  it('rejects an extra positional when the command takes a fixed number', () => {
    const one = {
      ...syntax,
      name: 'inbox',
      positionals: [{ name: 'session', arity: 'one' as const, description: 's' }],
    };
    const result = parseArguments(one, ['s1', 's2']);
    expect(isLeft(result) && result.left.message).toBe('inbox: unexpected argument "s2"');
  });

  it('accepts an omitted optional positional', () => {
    const optional = { ...syntax, positionals: [{ name: 'session', arity: 'optional' as const, description: 's' }] };
    const result = parseArguments(optional, []);
    expect(isRight(result) && result.right.positionals).toEqual([]);
  });

  it('names the command on the usage error so the message can point at its --help', () => {
    const result = parseArguments(syntax, ['--frob']);
    expect(isLeft(result) && result.left.fault.command).toBe('replay');
  });
});
