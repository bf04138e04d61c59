import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeBadStepLog, writeBadTaskLog } from './crafted-logs';
import { cliMain, repoRoot, runTeamlog, temporaryDirectory } from './run-teamlog';

describe('teamlog exit codes and error lines', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  it('exits 2 with one line for an unknown command, flag, or malformed --as-of', () => {
    for (const [args, message] of [
      [['frobnicate'], 'teamlog: unknown command "frobnicate" (see "teamlog --help")'],
      [
        ['replay', 'fixtures/synthetic', '--frob'],
        'teamlog: replay: unknown flag --frob (see "teamlog replay --help")',
      ],
      [
        ['replay', 'fixtures/synthetic', '--store', ':memory:', '--as-of', 'yesterday'],
        'teamlog: replay: --as-of expects',
      ],
      [['replay'], 'teamlog: replay: missing <path> (see "teamlog replay --help")'],
      [['serve', '--port', 'http'], 'teamlog: serve: --port expects a number'],
    ] as const) {
      const run = runTeamlog(args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr.startsWith(message)).toBe(true);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('exits 2 for a malformed EventStoreDB URL and 4, on one line, when the server cannot be reached', () => {
    const malformed = runTeamlog(['roster', '--store', 'esdb://']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^teamlog: invalid EventStoreDB connection string esdb:\/\/: /);
    // Port 1 on the loopback interface: refused at once, no timeout to wait for.
    const down = runTeamlog(['roster', '--store', 'esdb://127.0.0.1:1?tls=false']);
    expect(down.code).toBe(4);
    // The store failed, not teamlog: one line, and no stack trace to offer.
    expect(down.stderr).toMatch(/^teamlog: EventStoreDB connect failed \(unavailable\)[^\n]*\n$/);
    expect(down.stderr).not.toMatch(/--debug/);
  });

  it('exits 2 and prints the command list on stderr when no command is given', () => {
    const run = runTeamlog([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Commands:');
  });

  it('exits 3 with one line naming file, line and field path for a crafted bad file, and no stack trace', () => {
    const bad = join(directory.path, 'bad');
    mkdirSync(bad);
    const file = writeBadStepLog(bad);
    const run = runTeamlog(['replay', file, '--store', ':memory:']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`teamlog: ${file}:line 3: data.step: expected NonNegativeInteger, got "two"\n`);
    // The summary is still printed, with the file listed as rejected.
    expect(run.stdout).toContain('rejected: invalid-event (1 file)');
  });

  it('opens a Lead log with an undecodable Team record and reports it as the team failure, naming line and field path', () => {
    const lead = join(directory.path, 'bad-task');
    mkdirSync(lead);
    writeBadTaskLog(lead);
    const run = runTeamlog(['replay', lead, '--store', ':memory:', '--json']);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout) as {
      teams: Array<{ teamId: string; failure: { seq: number; type: string; reason: string } | null }>;
    };
    const team = document.teams.find((candidate) => candidate.teamId === 'crafted-cli-bad-task');
    expect(team?.failure).toMatchObject({ seq: 1, type: 'team/task' });
    expect(team?.failure?.reason).toMatch(
      /payload is invalid: data\.task\.revision: expected PositiveInteger, got "two"/,
    );
  });

  it('prints the stack trace of that error only with --debug', () => {
    const file = writeBadStepLog(join(directory.path));
    const run = runTeamlog(['replay', file, '--store', ':memory:', '--debug']);
    expect(run.code).toBe(3);
    const [first, ...rest] = run.stderr.split('\n');
    expect(first).toContain(':line 3: data.step');
    expect(rest.join('\n')).toMatch(/\n\s+at /);
  });

  it('exits 3 for a path that does not exist, naming it', () => {
    const run = runTeamlog(['replay', 'fixtures/no-such-dir', '--store', ':memory:']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('teamlog: fixtures/no-such-dir: no such file or directory\n');
  });

  it('exits 3 when a view command finds no store, naming the file', () => {
    const run = runTeamlog(['roster'], { cwd: directory.path });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(join(directory.path, '.teamlog', 'teamlog.db'));
    expect(run.stderr).toContain('no teamlog store here');
  });

  it('exits 3 when the store file is not a database', () => {
    const run = runTeamlog(['roster', '--store', 'fixtures/synthetic/README.md']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/README\.md: not a teamlog store: it is not a SQLite database/);
  });

  it('with --strict exits 1 when there are findings or failures, and 0 without --strict', () => {
    const store = join(directory.path, 'strict.db');
    expect(runTeamlog(['replay', 'fixtures/synthetic/audit-sender-not-in-team', '--store', store]).code).toBe(0);
    expect(
      runTeamlog(['replay', 'fixtures/synthetic/audit-sender-not-in-team', '--store', store, '--strict']).code,
    ).toBe(1);
    expect(runTeamlog(['audit', '--store', store, '--strict']).code).toBe(1);
  });

  it('with --strict exits 0 when nothing is wrong', () => {
    const store = join(directory.path, 'clean.db');
    expect(runTeamlog(['replay', 'fixtures/synthetic/v4-late-delivery', '--store', store, '--strict']).code).toBe(0);
    expect(runTeamlog(['audit', '--store', store, '--strict']).code).toBe(0);
  });

  it('stops quietly when the reader of stdout goes away (teamlog ... | head)', () => {
    // fixtures/dsh-logs prints more than a pipe buffer holds, so the CLI is still writing when head leaves.
    const pipeline = spawnSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${cliMain}" replay fixtures/dsh-logs --store :memory: --json | head -c 100 > /dev/null`,
      ],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(pipeline.stderr).toBe('');
    expect(pipeline.status).toBe(0);
  });
});
