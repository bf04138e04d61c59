import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runTeamlog, temporaryDirectory } from './run-teamlog';

describe('teamlog demo', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  it('runs the scripted team on the embedded store and prints its views as JSON', () => {
    const run = runTeamlog(['demo', '--json']);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.store).toBe(':memory: (nothing is kept)');
    expect(document.demo.members.map((member: { name: string }) => member.name)).toEqual([
      'researcher',
      'implementer',
      'reviewer',
    ]);
    expect(document.demo.rejected).toEqual([
      expect.objectContaining({ from: 'lead', to: 'reviewer', error: 'TargetClosed' }),
    ]);
    expect(new Set(document.demo.messages.map((message: { delivery: string }) => message.delivery))).toEqual(
      new Set(['start-turn', 'steer', 'cold-resume']),
    );
    // The projections saw the same team the demo ran.
    expect(document.teams).toHaveLength(1);
    expect(document.teams[0].teamId).toBe(document.demo.teamId);
    expect(document.teams[0].members.map((member: { name: string }) => member.name)).toEqual([
      'researcher',
      'implementer',
      'reviewer',
    ]);
    expect(document.teams[0].tasks.map((task: { status: string }) => task.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    expect(document.inbox).toHaveLength(document.demo.messages.length);
    expect(document.audit).toEqual([]);
  });

  it('keeps the demo in a SQLite file given with --store, for the other commands', () => {
    const store = join(directory.path, 'demo.db');
    const run = runTeamlog(['demo', '--store', store]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('What happened');
    expect(run.stdout).toMatch(/researcher\s+implementer\s+steer\s+claimed/);
    const roster = runTeamlog(['roster', '--store', store, '--json']);
    expect(roster.code).toBe(0);
    expect(JSON.parse(roster.stdout).teams[0].members).toHaveLength(3);
  });

  it('ignores TEAMLOG_STORE so it never writes into the real store', () => {
    const real = join(directory.path, 'real.db');
    expect(runTeamlog(['demo', '--json'], { env: { TEAMLOG_STORE: real } }).code).toBe(0);
    expect(existsSync(real)).toBe(false);
  });
});
