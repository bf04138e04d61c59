import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  repoRoot,
  runTeamlog,
  runTeamlogUnprivileged,
  storedEventCount,
  temporaryDirectory,
  type TeamlogRun,
} from './run-teamlog';

/*
 * Every bad path is bad input (exit 3) on one line for that path, with no stack trace, whatever
 * the command; an import goes on with the rest. A command that only reads never writes: it does
 * not migrate, convert or create a store, and it works on a store the user cannot write.
 */

const fixture = join(repoRoot, 'fixtures', 'synthetic', 'v0-mailbox');
const temp = temporaryDirectory();
afterAll(() => {
  execFileSync('chmod', ['-R', 'u+rwx', temp.path]);
  temp.cleanup();
});
const at = (name: string): string => join(temp.path, name);

/** A regular file's content hash; never opens a FIFO (that would block) or a device. */
const digest = (file: string): string => {
  if (!existsSync(file)) return 'absent';
  const stats = statSync(file);
  return stats.isFile() ? createHash('sha256').update(readFileSync(file)).digest('hex') : `${stats.mode}:${stats.rdev}`;
};
/** The files of a directory with their content: nothing in it may change while a reader runs. */
const contents = (directory: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(directory)
      .filter((name) => !name.endsWith('-shm') && !name.endsWith('-wal'))
      .map((name) => [name, statSync(join(directory, name)).isFile() ? digest(join(directory, name)) : 'dir']),
  );

const expectOneLine = (run: TeamlogRun, code: number, pattern: RegExp): void => {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code, stderr: expect.stringMatching(pattern) });
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
};

let goodStore: string;
beforeAll(() => {
  chmodSync(temp.path, 0o755);
  goodStore = at('good.db');
  expect(runTeamlog(['replay', fixture, '--store', goodStore]).code).toBe(0);
  mkdirSync(at('a-directory'));
  execFileSync('mkfifo', [at('a-fifo')]);
  writeFileSync(at('empty.db'), '');
  const foreign = new Database(at('foreign.db'));
  foreign.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
  foreign.close();
  copyFileSync(goodStore, at('newer.db'));
  const newer = new Database(at('newer.db'));
  newer.exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from_the_future', 0)");
  newer.close();
  copyFileSync(goodStore, at('newer-views.db'));
  const newerViews = new Database(at('newer-views.db'));
  newerViews.exec(
    "INSERT INTO projection_schema_migrations (version, name, applied_at) VALUES (99, 'from_the_future', 0)",
  );
  newerViews.close();
});

const badStores: ReadonlyArray<readonly [string, () => string, RegExp]> = [
  ['a missing file', () => at('missing.db'), /missing\.db: no teamlog store here/],
  ['a directory', () => at('a-directory'), /a-directory: not a teamlog store: it is a directory/],
  ['a FIFO', () => at('a-fifo'), /a-fifo: not a teamlog store: it is not a regular file/],
  ['/dev/null', () => '/dev/null', /\/dev\/null: not a teamlog store: it is not a regular file/],
  ['an empty file', () => at('empty.db'), /empty\.db: not a teamlog store: the file is empty/],
  [
    'a foreign SQLite file',
    () => at('foreign.db'),
    /foreign\.db: not a teamlog store: the database has no schema_migrations table/,
  ],
  [
    'a text file',
    () => join(repoRoot, 'fixtures', 'synthetic', 'README.md'),
    /README\.md: not a teamlog store: it is not a SQLite database/,
  ],
  ['a newer schema', () => at('newer.db'), /newer\.db: store schema version 99 is newer than this teamlog knows/],
];

const storeCommands: ReadonlyArray<readonly [string, (store: string) => string[]]> = [
  ['replay', (store) => ['replay', fixture, '--store', store]],
  ['import', (store) => ['import', fixture, '--store', store]],
  ['roster', (store) => ['roster', '--store', store]],
  ['tasks', (store) => ['tasks', '--store', store]],
  ['legacy', (store) => ['legacy', '--store', store]],
  ['audit', (store) => ['audit', '--store', store]],
  ['inbox', (store) => ['inbox', 'v0-reviewer', '--store', store]],
  ['export', (store) => ['export', 'v0-lead', '--out', at('export.jsonl'), '--store', store]],
  ['serve', (store) => ['serve', '--port', '0', '--store', store]],
  ['mcp', (store) => ['mcp', '--session', 'v0-lead', '--store', store]],
  ['migrate', (store) => ['migrate', '--from', store, '--to', at('migrated.db')]],
  ['demo', (store) => ['demo', '--store', store]],
];

describe('bad store paths, for every command', () => {
  for (const [command, args] of storeCommands) {
    for (const [name, store, message] of badStores) {
      if (name === 'a missing file' && ['replay', 'import', 'demo'].includes(command)) continue;
      it(`${command} with ${name}: exit 3, one line, the file untouched`, () => {
        const file = store();
        const before = digest(file);
        expectOneLine(runTeamlog(args(file)), 3, message);
        expect(digest(file)).toBe(before);
        // A reader of a WAL database may leave SQLite's empty -wal beside it, never a written one.
        expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
      });
    }
  }

  it('replay refuses a store whose views a newer teamlog wrote before appending anything', () => {
    const file = at('newer-views.db');
    const before = storedEventCount(file);
    const other = join(repoRoot, 'fixtures', 'synthetic', 'v4-direct');
    expectOneLine(
      runTeamlog(['replay', other, '--store', file]),
      3,
      /newer-views\.db: store schema version 99 is newer than this teamlog knows/,
    );
    expect(storedEventCount(file)).toBe(before);
  });
});

describe('bad log paths', () => {
  it.each([
    ['a missing path', () => at('no-such-log'), /no-such-log: no such file or directory/],
    ['a FIFO', () => at('a-fifo'), /a-fifo: not a regular file or directory/],
    ['/dev/null', () => '/dev/null', /\/dev\/null: not a regular file or directory/],
  ])('%s alone: exit 3, one line, and no store is created', (_name, path, message) => {
    for (const command of ['replay', 'import']) {
      const store = at(`never-created-${command}.db`);
      expectOneLine(runTeamlog([command, path(), '--store', store]), 3, message);
      expect(existsSync(store)).toBe(false);
    }
  });

  it('a regular file whose first read fails (/proc/self/mem): exit 3, one line, and no store is created', () => {
    for (const command of ['replay', 'import']) {
      const store = at(`never-created-mem-${command}.db`);
      expectOneLine(
        runTeamlog([command, '/proc/self/mem', '--store', store]),
        3,
        /\/proc\/self\/mem: cannot read it \(EIO\)/,
      );
      expect(existsSync(store)).toBe(false);
    }
  });

  it.each([
    ['a missing path', () => at('no-such-root'), /no-such-root: no such file or directory/],
    ['a FIFO', () => at('a-fifo'), /a-fifo: not a regular file or directory/],
    ['/dev/zero', () => '/dev/zero', /\/dev\/zero: not a regular file or directory/],
    ['/proc/self/mem', () => '/proc/self/mem', /\/proc\/self\/mem: cannot read it \(EIO\)/],
  ])('followers refuse %s as their root: exit 3, one line, and no store is created', (_name, path, message) => {
    const followers: ReadonlyArray<readonly [string, (store: string) => string[]]> = [
      ['watch', (store) => ['watch', path(), '--store', store]],
      ['serve', (store) => ['serve', '--port', '0', '--follow', path(), '--store', store]],
    ];
    for (const [name, args] of followers) {
      const store = at(`never-created-follow-${name}.db`);
      expectOneLine(runTeamlog(args(store)), 3, message);
      expect(existsSync(store)).toBe(false);
    }
  });

  it('a bad path among good ones: the good ones are imported, then exit 3 naming the bad one', () => {
    const store = at('mixed.db');
    const run = runTeamlog(['import', at('no-such-log'), fixture, '/dev/null', '--store', store]);
    expectOneLine(run, 3, /no-such-log: no such file or directory \(and 1 more bad path: \/dev\/null\)/);
    expect(storedEventCount(store)).toBeGreaterThan(0);
  });

  it('an unreadable subdirectory is listed and the rest of the root is imported; an unreadable named file exits 3', () => {
    const root = at('root-with-locked');
    mkdirSync(join(root, 'locked'), { recursive: true });
    execFileSync('cp', ['-r', fixture, join(root, 'open')]);
    const lockedLog = join(root, 'open', 'v0-lead', 'session.jsonl');
    chmodSync(join(root, 'locked'), 0o000);
    try {
      const store = at('locked.db');
      const run = runTeamlogUnprivileged(['import', root, '--store', store, '--json']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const document = JSON.parse(run.stdout) as { sessions: Array<{ file: string; rejected?: string }> };
      expect(document.sessions.find((session) => session.file.endsWith('locked'))).toMatchObject({
        rejected: 'unreadable',
      });
      expect(document.sessions.filter((session) => session.rejected === undefined).length).toBeGreaterThan(0);
      chmodSync(lockedLog, 0o000);
      expectOneLine(
        runTeamlogUnprivileged(['import', lockedLog, '--store', store]),
        3,
        /session\.jsonl: permission denied/,
      );
    } finally {
      chmodSync(join(root, 'locked'), 0o755);
      chmodSync(lockedLog, 0o644);
    }
  });
});

describe('export targets', () => {
  it.each([
    ['a missing directory', () => at('no-dir/x.jsonl'), /no-dir\/x\.jsonl: the directory .*no-dir does not exist/],
    ['a FIFO', () => at('a-fifo'), /a-fifo: it is a FIFO; export writes only a regular file/],
    [
      'a symbolic link',
      () => {
        const link = at('a-link.jsonl');
        if (!existsSync(link)) symlinkSync(at('link-target.jsonl'), link);
        return link;
      },
      /a-link\.jsonl: it is a symbolic link/,
    ],
    ['a device', () => '/dev/null', /\/dev\/null: it is a device/],
    ['a directory', () => at('a-directory'), /a-directory: it is a directory/],
  ])('%s: exit 3, one line, nothing replaced', (_name, target, message) => {
    const file = target();
    expectOneLine(runTeamlog(['export', 'v0-lead', '--out', file, '--store', goodStore]), 3, message);
    expect(existsSync(at('link-target.jsonl'))).toBe(false);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });
});

describe('reading never writes', () => {
  it('the view commands, export and audit leave a store file byte for byte as it was (no views, no migration table added)', () => {
    const store = at('imported-only.db');
    expect(runTeamlog(['import', fixture, '--store', store]).code).toBe(0);
    const before = digest(store);
    for (const args of [
      ['roster'],
      ['tasks'],
      ['legacy'],
      ['audit'],
      ['inbox', 'v0-reviewer'],
      ['export', 'v0-lead', '--out', at('out.jsonl')],
    ]) {
      expect(runTeamlog([...args, '--store', store]).code).toBe(0);
    }
    expect(digest(store)).toBe(before);
  });

  it('reads a store in a directory the user cannot write, and a store file the user cannot write', () => {
    const directory = at('read-only-dir');
    mkdirSync(directory);
    const store = join(directory, 'team.db');
    copyFileSync(goodStore, store);
    chmodSync(store, 0o444);
    chmodSync(directory, 0o555);
    try {
      const before = contents(directory);
      const roster = runTeamlogUnprivileged(['roster', '--store', store, '--json']);
      expect(roster.stderr).toBe('');
      expect(roster.code).toBe(0);
      expect(JSON.parse(roster.stdout)).toMatchObject({ teams: [{ teamId: 'v0-lead' }] });
      for (const args of [['audit'], ['legacy'], ['export', 'v0-lead', '--out', at('from-read-only.jsonl')]]) {
        const run = runTeamlogUnprivileged([...args, '--store', store]);
        expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
      }
      expect(contents(directory)).toEqual(before);
      const write = runTeamlogUnprivileged(['import', fixture, '--store', store]);
      expectOneLine(write, 3, /team\.db: the store is not writable/);
    } finally {
      chmodSync(directory, 0o755);
    }
  });
});
