import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cliMain, repoRoot } from './run-teamlog';

const probe = join(__dirname, 'module-probe.js');
const plainLog = join(repoRoot, 'fixtures', 'synthetic', 'v4-late-delivery');

/** The files a `teamlog` process loaded, and its stdout. */
const loadedBy = (args: readonly string[]): { readonly files: readonly string[]; readonly stdout: string } => {
  const result = spawnSync(process.execPath, ['-r', probe, cliMain, ...args], { cwd: repoRoot, encoding: 'utf8' });
  const line = result.stderr.split('\n').find((each) => each.startsWith('module-probe '));
  if (result.status !== 0 || line === undefined)
    throw new Error(`teamlog ${args.join(' ')} exited ${result.status}; stderr: ${result.stderr}`);
  return { files: JSON.parse(line.slice('module-probe '.length)) as string[], stdout: result.stdout };
};

/** What `replay --store :memory:` of a plain log never uses: other commands, the text renderers, other stores, the terminal bar, zstd, the uuid package. */
const unusedByMemoryReplay = [
  /^packages\/cli\/dist\/commands\/(?!replay-command|command-registry)/,
  /^packages\/cli\/dist\/text\/(?!text-style)/,
  /^packages\/(team|scripted-host|dashboard|tools|store-sqlite|store-postgres|store-eventstoredb)\//,
  /^node_modules\/(better-sqlite3|cli-progress|@bokuweb\/zstd-wasm|xxhash-wasm|pg|@modelcontextprotocol|uuid)\//,
];

describe('teamlog start-up', () => {
  it('replay --store :memory: of a plain log loads no other command, text renderer, store, progress bar or zstd code', () => {
    const { files, stdout } = loadedBy(['replay', plainLog, '--store', ':memory:', '--json']);
    expect(JSON.parse(stdout)).toMatchObject({ store: ':memory: (nothing is kept)' });
    expect(files.filter((file) => unusedByMemoryReplay.some((pattern) => pattern.test(file)))).toEqual([]);
  });

  it('--help still loads every command to list them', () => {
    const { files, stdout } = loadedBy(['--help']);
    expect(stdout).toContain('Commands:');
    expect(files).toEqual(expect.arrayContaining(['packages/cli/dist/commands/serve-command.js']));
  });
});
