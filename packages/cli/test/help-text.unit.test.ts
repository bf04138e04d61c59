import { booleanFlag, valueFlag } from '../src/argument-parser';
import { commandList } from '../src/commands/command-list';
import { commandHelp, usageLine } from '../src/help-text';

describe('help text', () => {
  const syntax = {
    name: 'export',
    summary: 'Write a session.',
    positionals: [
      { name: 'session', arity: 'one' as const, description: 'the session id' },
      { name: 'extra', arity: 'optional' as const, description: 'x' },
    ],
    flags: { out: valueFlag('FILE', 'the file'), json: booleanFlag('json') },
    notes: ['A note.'],
  };

  it('writes the usage line with required and optional arguments', () => {
    expect(usageLine(syntax)).toBe('teamlog export <session> [extra] [flags]');
  });

  it('aligns flags with their value names and ends with the notes', () => {
    const help = commandHelp(syntax);
    expect(help).toContain('  --out FILE  the file\n  --json      json\n');
    expect(help.trimEnd().endsWith('A note.')).toBe(true);
  });

  it('every command of teamlog has a summary and documents --json or a reason not to, and --help', () => {
    for (const command of commandList) {
      expect(command.syntax.summary.length).toBeGreaterThan(10);
      expect(Object.keys(command.syntax.flags)).toEqual(expect.arrayContaining(['help', 'debug']));
    }
    const withoutJson = commandList
      .filter((command) => !('json' in command.syntax.flags))
      .map((command) => command.syntax.name);
    // serve prints a URL, mcp speaks MCP on stdout: neither prints a document.
    expect(withoutJson).toEqual(['serve', 'mcp']);
  });
});
