import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { badInput } from '../src/cli-errors';
import { booleanFlag } from '../src/argument-parser';
import { type Command, defineCommand } from '../src/command';
import { ExitCode } from '../src/exit-code';
import type { LazyCommand } from '../src/lazy-command';
import { runCli } from '../src/run-cli';
import { capturedIo } from './captured-io';

const calls: Array<{ readonly positionals: readonly string[]; readonly loud: boolean }> = [];

const echo = defineCommand(
  {
    name: 'echo',
    summary: 'Print the words.\nSecond line of the summary.',
    positionals: [{ name: 'word', arity: 'many', description: 'words' }],
    flags: { loud: booleanFlag('shout') },
  },
  async ({ positionals, flags }, { io }) => {
    calls.push({ positionals, loud: flags.loud });
    io.stdout(`${positionals.join(' ')}\n`);
    return ExitCode.ok;
  },
);

const failing = defineCommand({ name: 'fail', summary: 'Fail.', positionals: [], flags: {} }, async () => {
  throw badInput('no such file or directory', { file: 'missing.jsonl' });
});

const commands: readonly Command[] = [echo, failing];

describe('runCli', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('runs the named command with its parsed arguments', async () => {
    const io = capturedIo();
    expect(await runCli(['echo', 'a', '--loud', 'b'], io, commands)).toBe(ExitCode.ok);
    expect(calls).toEqual([{ positionals: ['a', 'b'], loud: true }]);
    expect(io.out()).toBe('a b\n');
  });

  it('prints the general help on stderr and exits 2 without a command', async () => {
    const io = capturedIo();
    expect(await runCli([], io, commands)).toBe(ExitCode.usage);
    expect(io.err()).toContain('Usage: teamlog <command>');
    expect(io.err()).toMatch(/echo\s+Print the words\.\n/);
  });

  it('prints the general help on stdout and exits 0 for --help, and a command\'s help for "help <command>"', async () => {
    const general = capturedIo();
    expect(await runCli(['--help'], general, commands)).toBe(ExitCode.ok);
    expect(general.out()).toContain('Commands:');
    const specific = capturedIo();
    expect(await runCli(['help', 'echo'], specific, commands)).toBe(ExitCode.ok);
    expect(specific.out()).toContain('Usage: teamlog echo <word...> [flags]');
  });

  it('prints the version of @teamlog/cli for --version, and exits 0', async () => {
    const io = capturedIo();
    expect(await runCli(['--version'], io, commands)).toBe(ExitCode.ok);
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(io.out()).toBe(`${version}\n`);
    expect(calls).toEqual([]);
  });

  it('answers <command> --help without running the command, listing its flags and the universal ones', async () => {
    const io = capturedIo();
    expect(await runCli(['echo', '--help'], io, commands)).toBe(ExitCode.ok);
    expect(calls).toEqual([]);
    expect(io.out()).toMatch(/--loud\s+shout/);
    expect(io.out()).toMatch(/-h, --help\s+show this help/);
    expect(io.out()).toMatch(/--debug\s+print the stack trace/);
  });

  it('exits 2 with one line for an unknown command', async () => {
    const io = capturedIo();
    expect(await runCli(['frobnicate'], io, commands)).toBe(ExitCode.usage);
    expect(io.err()).toBe('teamlog: unknown command "frobnicate" (see "teamlog --help")\n');
  });

  it('exits 2 with one line for an unknown flag', async () => {
    const io = capturedIo();
    expect(await runCli(['echo', 'a', '--quiet'], io, commands)).toBe(ExitCode.usage);
    expect(io.err()).toBe('teamlog: echo: unknown flag --quiet (see "teamlog echo --help")\n');
  });

  it('exits 3 with one line and no stack for bad input', async () => {
    const io = capturedIo();
    expect(await runCli(['fail'], io, commands)).toBe(ExitCode.badInput);
    expect(io.err()).toBe('teamlog: missing.jsonl: no such file or directory\n');
  });

  it('adds the stack trace with --debug', async () => {
    const io = capturedIo();
    expect(await runCli(['fail', '--debug'], io, commands)).toBe(ExitCode.badInput);
    const [first, ...rest] = io.err().split('\n');
    expect(first).toBe('teamlog: missing.jsonl: no such file or directory');
    expect(rest.join('\n')).toMatch(/CliError: missing.jsonl: no such file or directory\n\s+at /);
  });

  it('loads only the lazy command it runs, and every one for the general help', async () => {
    const loaded: string[] = [];
    const lazy = (command: Command): LazyCommand => ({
      name: command.name,
      load: async () => {
        loaded.push(command.name);
        return command;
      },
    });
    const io = capturedIo();
    expect(await runCli(['echo', 'a'], io, [lazy(echo), lazy(failing)])).toBe(ExitCode.ok);
    expect(io.out()).toBe('a\n');
    expect(loaded).toEqual(['echo']);
    loaded.length = 0;
    expect(await runCli(['help', 'fail'], capturedIo(), [lazy(echo), lazy(failing)])).toBe(ExitCode.ok);
    expect(loaded).toEqual(['fail']);
    loaded.length = 0;
    const general = capturedIo();
    expect(await runCli(['--help'], general, [lazy(echo), lazy(failing)])).toBe(ExitCode.ok);
    expect(general.out()).toMatch(/echo\s+Print the words\.\n\s+fail\s+Fail\.\n/);
    expect(loaded.sort()).toEqual(['echo', 'fail']);
  });

  it('refuses a lazy command whose module holds another command', async () => {
    const io = capturedIo();
    expect(await runCli(['other'], io, [{ name: 'other', load: async () => echo }])).toBe(ExitCode.failure);
    expect(io.err()).toContain('command "other" loaded as "echo"');
  });
});
