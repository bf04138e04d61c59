import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runTeamlog, temporaryDirectory } from './run-teamlog';

/* A team from the command line: create it, list the sessions an agent can be given, and a refusal that says how. */

describe('teamlog team create and teamlog sessions', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());
  const store = join(directory.path, 'team.db');

  it('creates a team with the given name on a new store and prints its id and the Lead session id as JSON', () => {
    const run = runTeamlog(['team', 'create', '--name', 'release crew', '--store', store, '--json']);
    expect(run.code).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created).toEqual({ teamId: expect.any(String), leadSessionId: created.teamId, name: 'release crew' });
    expect(existsSync(store)).toBe(true);
  });

  it("names a team after the Lead's working directory when no name is given, and says how to give an agent the Lead", () => {
    const run = runTeamlog(['team', 'create', '--cwd', '/home/ada/site', '--store', store]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Created team "site" \(\S+\)/);
    expect(run.stdout).toMatch(/teamlog mcp --session \S+ --store /);
  });

  it('lists the live sessions of every team, and of one team with --team', () => {
    const all = JSON.parse(runTeamlog(['sessions', '--store', store, '--json']).stdout).sessions;
    expect(all.map((session: { teamName: string; role: string }) => [session.teamName, session.role]).sort()).toEqual([
      ['release crew', 'lead'],
      ['site', 'lead'],
    ]);
    const [first] = all;
    const one = runTeamlog(['sessions', '--store', store, '--team', first.teamId, '--json']);
    expect(JSON.parse(one.stdout).sessions).toEqual([first]);
  });

  it('lists no imported (historical) session: those are read-only', () => {
    const imported = join(directory.path, 'imported.db');
    expect(runTeamlog(['import', 'fixtures/dsh-logs', '--store', imported]).code).toBe(0);
    const run = runTeamlog(['sessions', '--store', imported]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No live sessions');
    expect(run.stdout).toContain('teamlog team create');
  });

  it('refuses a team in :memory:, a blank name and an unknown action in one line, creating nothing', () => {
    const memory = runTeamlog(['team', 'create', '--store', ':memory:']);
    expect([memory.code, memory.stderr.trim().split('\n')]).toEqual([
      3,
      [expect.stringContaining('give --store FILE')],
    ]);
    const blank = runTeamlog(['team', 'create', '--name', ' ', '--store', join(directory.path, 'never.db')]);
    expect([blank.code, blank.stderr.trim().split('\n')]).toEqual([
      3,
      [expect.stringContaining('--name: expected 1 to 200 characters on one line')],
    ]);
    const unknown = runTeamlog(['team', 'remove', '--store', join(directory.path, 'never.db')]);
    expect(unknown.code).toBe(2);
    expect(existsSync(join(directory.path, 'never.db'))).toBe(false);
  });

  it('refuses to serve MCP for a session that is not a live team session, and says how to get one', () => {
    const run = runTeamlog(['mcp', '--session', 'v0-reviewer', '--store', store]);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`teamlog sessions --store ${store}`);
    expect(run.stderr).toContain('teamlog team create');
  });
});

describe('teamlog demo says where it wrote', () => {
  it('given no --store, then it says nothing is kept and shows demo --store then serve', () => {
    const run = runTeamlog(['demo']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The demo wrote to :memory:, so nothing is kept');
    expect(run.stdout).toMatch(/teamlog demo --store demo\.db\n\s+teamlog serve --store demo\.db/);
  });
});
