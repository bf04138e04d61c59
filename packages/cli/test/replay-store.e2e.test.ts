import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRight } from 'fp-ts/Either';
import { ReplayDocument } from '../src/replay-document';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { repoRoot, runTeamlog, storedEventCount, temporaryDirectory } from './run-teamlog';

const fixtures = join(repoRoot, 'fixtures');

const replayJson = (args: readonly string[], options: Parameters<typeof runTeamlog>[1] = {}): ReplayDocument => {
  const run = runTeamlog(['replay', ...args, '--json'], options);
  expect(run.code).toBe(0);
  const decoded = ReplayDocument.decode(JSON.parse(run.stdout));
  if (!isRight(decoded)) throw new Error('the replay document does not decode');
  return decoded.right;
};

/** Every table's rows in order, but for the times a run stamps (recorded_at, updated_at, applied_at), and the journal mode. */
const dumpOf = (file: string): { readonly journalMode: unknown; readonly tables: Record<string, unknown[]> } => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    const tables: Record<string, unknown[]> = {};
    for (const name of names) {
      tables[name] = (db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]).map(
        ({ recorded_at, updated_at, applied_at, ...row }) => row,
      );
    }
    return { journalMode: db.pragma('journal_mode', { simple: true }), tables };
  } finally {
    db.close();
  }
};

describe('teamlog replay and its store', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  it('is idempotent: replaying fixtures/ twice into one SQLite file appends nothing the second time', () => {
    const store = join(directory.path, 'twice.db');
    const first = replayJson(['fixtures/', '--store', store]);
    const afterFirst = storedEventCount(store);
    const second = replayJson(['fixtures/', '--store', store]);
    expect(first.totals.appended).toBeGreaterThan(0);
    expect(second.totals.appended).toBe(0);
    expect(second.sessions.every((session) => session.appended === 0)).toBe(true);
    expect(storedEventCount(store)).toBe(afterFirst);
    expect(second.position).toBe(first.position);
    expect(second.teams).toEqual(first.teams);
    expect(second.inbox).toEqual(first.inbox);
    expect(second.audit).toEqual(first.audit);
  }, 120_000);

  it('defaults to .teamlog/teamlog.db under the current directory, creating the folder', () => {
    const cwd = join(directory.path, 'project');
    mkdirSync(cwd);
    const document = replayJson([join(fixtures, 'synthetic', 'v0-mailbox')], { cwd });
    const file = join(cwd, '.teamlog', 'teamlog.db');
    expect(document.store).toBe(file);
    expect(storedEventCount(file)).toBeGreaterThan(0);
    // The view commands find the same store without being told.
    const roster = runTeamlog(['roster', '--json'], { cwd });
    expect(roster.code).toBe(0);
    expect(JSON.parse(roster.stdout).teams[0].teamId).toBe('v0-lead');
  });

  it('uses TEAMLOG_STORE when --store is not given', () => {
    const file = join(directory.path, 'from-env.db');
    const document = replayJson(['fixtures/synthetic/v4-direct'], { env: { TEAMLOG_STORE: file } });
    expect(document.store).toBe(file);
    expect(existsSync(file)).toBe(true);
  });

  it('keeps nothing with --store :memory:, and still shows the views', () => {
    const cwd = join(directory.path, 'memory');
    mkdirSync(cwd);
    const document = replayJson([join(fixtures, 'synthetic', 'v0-mailbox'), '--store', ':memory:'], { cwd });
    expect(document.store).toBe(':memory: (nothing is kept)');
    expect(document.teams.map((team) => team.teamId)).toEqual(['v0-lead']);
    expect(existsSync(join(cwd, '.teamlog'))).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('writes a file it creates (with a rollback journal) as it writes an existing one (WAL): the same output, rows and WAL after', async () => {
    const created = join(directory.path, 'created', 'store.db');
    const existing = join(directory.path, 'existing', 'store.db');
    mkdirSync(dirname(existing), { recursive: true });
    await SqliteEventStore.open(existing).close();
    const intoCreated = runTeamlog(['replay', 'fixtures/', '--store', created, '--json']);
    const intoExisting = runTeamlog(['replay', 'fixtures/', '--store', existing, '--json']);
    expect(intoCreated.code).toBe(0);
    expect(intoCreated.stdout.replaceAll(created, 'STORE')).toBe(intoExisting.stdout.replaceAll(existing, 'STORE'));
    const dump = dumpOf(created);
    expect(dump.journalMode).toBe('wal');
    expect(dump).toEqual(dumpOf(existing));
    expect(existsSync(`${created}-journal`)).toBe(false);
  }, 120_000);

  it('shows with --store :memory: (a store keeping only stream heads) exactly what a SQLite store shows, over fixtures/', () => {
    const inMemory = replayJson(['fixtures/', '--store', ':memory:']);
    const inSqlite = replayJson(['fixtures/', '--store', join(directory.path, 'compare.db')]);
    expect(inMemory.totals.appended).toBeGreaterThan(0);
    expect({ ...inMemory, store: '', position: '' }).toEqual({ ...inSqlite, store: '', position: '' });
  }, 120_000);

  it('replays a session given twice into :memory: as a store that keeps the events does: the copy imports and appends nothing', () => {
    const document = replayJson([
      'fixtures/synthetic/v0-mailbox',
      'fixtures/synthetic/v0-mailbox',
      '--store',
      ':memory:',
    ]);
    expect(document.totals).toMatchObject({ files: 6, imported: 6, rejected: 0 });
    expect(document.sessions.map((session) => session.appended)).toEqual([
      expect.any(Number),
      expect.any(Number),
      expect.any(Number),
      0,
      0,
      0,
    ]);
    expect(document.teams.map((team) => team.teamId)).toEqual(['v0-lead']);
  });

  it('takes several paths, a session directory and a single file among them', () => {
    const document = replayJson([
      'fixtures/synthetic/v0-mailbox/v0-lead',
      'fixtures/synthetic/v3-failure/fail-lead/session.v3.jsonl',
      '--store',
      ':memory:',
    ]);
    expect(document.sessions.map((session) => session.id)).toEqual(['v0-lead', 'fail-lead']);
    expect(document.teams.map((team) => team.teamId)).toEqual(['fail-lead', 'v0-lead']);
  });

  it('prints a summary a person can read without --json', () => {
    const run = runTeamlog(['replay', 'fixtures/synthetic/v0-mailbox', '--store', ':memory:']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Sessions: 3 files read, 3 imported');
    expect(run.stdout).toMatch(/Team v0-lead/);
    expect(run.stdout).toMatch(/! UNDELIVERED\s+\S+\s+lead\s+v0-reviewer/);
    expect(run.stdout).toContain('Audit: ');
    // Not a terminal: no colour codes and no progress bar.
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stderr).toBe('');
  });
});
