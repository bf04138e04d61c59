import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cliMain, repoRoot, storedEventCount, temporaryDirectory } from './run-teamlog';

const probe = join(__dirname, 'module-probe.js');
const plainLog = join(repoRoot, 'fixtures', 'synthetic', 'v4-late-delivery');

interface Loaded {
  /** The files loaded through require, relative to the repository. */
  readonly files: readonly string[];
  /** The Node built-in modules loaded. */
  readonly builtins: readonly string[];
  readonly stdout: string;
}

/** What a `teamlog` process loaded, and its stdout. */
const loadedBy = (args: readonly string[], env: Readonly<Record<string, string>> = {}): Loaded => {
  const result = spawnSync(process.execPath, ['-r', probe, cliMain, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const line = result.stderr.split('\n').find((each) => each.startsWith('module-probe '));
  if (result.status !== 0 || line === undefined)
    throw new Error(`teamlog ${args.join(' ')} exited ${result.status}; stderr: ${result.stderr}`);
  const { files, builtins } = JSON.parse(line.slice('module-probe '.length)) as Omit<Loaded, 'stdout'>;
  return { files, builtins, stdout: result.stdout };
};

/** The repository's own files a process loaded: the bundled CLI only, never a package's compiled modules. */
const repositoryFiles = (files: readonly string[]): readonly string[] =>
  files.filter((file) => file.startsWith('packages/') && file !== 'packages/cli/test/module-probe.js');

/**
 * What `replay --store :memory:` of a plain log never uses, and what loading it would show: the
 * SQLite store (better-sqlite3, its writer thread's worker_threads), PostgreSQL (pg), EventStoreDB,
 * the MCP tools, the terminal bar, zstd, the uuid package and the dashboard (node:http).
 */
const unusedModules = [
  /^node_modules\/(better-sqlite3|cli-progress|@bokuweb\/zstd-wasm|xxhash-wasm|pg|@eventstore|@modelcontextprotocol|uuid)\//,
];
const unusedBuiltins = ['http', 'worker_threads'];

describe('teamlog start-up', () => {
  it('replay --store :memory: of a plain log runs from the one bundled file and loads no store, dashboard, MCP, progress bar or zstd code', () => {
    const { files, builtins, stdout } = loadedBy(['replay', plainLog, '--store', ':memory:', '--json']);
    expect(JSON.parse(stdout)).toMatchObject({ store: ':memory: (nothing is kept)' });
    expect(repositoryFiles(files)).toEqual(['packages/cli/dist/teamlog.js']);
    expect(files.filter((file) => unusedModules.some((pattern) => pattern.test(file)))).toEqual([]);
    expect(builtins.filter((name) => unusedBuiltins.includes(name))).toEqual([]);
  });

  it('replay into a SQLite file with the writer thread on runs the thread from the script built beside the bundle', () => {
    const directory = temporaryDirectory();
    try {
      const file = join(directory.path, 'replayed.db');
      // Checked first: a thread whose script is missing never answers, and the replay would wait on it.
      expect(existsSync(join(dirname(cliMain), 'sqlite-writer-worker.js'))).toBe(true);
      const { files } = loadedBy(['replay', plainLog, '--store', file, '--json'], { TEAMLOG_WRITER_THREAD: 'on' });
      expect(repositoryFiles(files)).toEqual(['packages/cli/dist/teamlog.js']);
      expect(storedEventCount(file)).toBeGreaterThan(0);
    } finally {
      directory.cleanup();
    }
  });

  it('--help still lists every command from the bundled file', () => {
    const { files, stdout } = loadedBy(['--help']);
    expect(stdout).toContain('Commands:');
    expect(stdout).toContain('serve');
    expect(repositoryFiles(files)).toEqual(['packages/cli/dist/teamlog.js']);
  });
});
