import { join } from 'node:path';
import { runTeamlog, temporaryDirectory } from './run-teamlog';

describe('teamlog import, roster, tasks, inbox, legacy, audit', () => {
  const directory = temporaryDirectory();
  const store = join(directory.path, 'views.db');
  afterAll(() => directory.cleanup());

  const json = (args: readonly string[]) => {
    const run = runTeamlog([...args, '--store', store, '--json']);
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
    return JSON.parse(run.stdout);
  };

  beforeAll(() => {
    const imported = json(['import', 'fixtures/synthetic']);
    expect(imported.totals).toMatchObject({ files: 27, imported: 27, rejected: 0 });
  }, 60_000);

  it('import prints the sessions and totals, and a second import appends nothing', () => {
    const again = json(['import', 'fixtures/synthetic']);
    expect(again.totals.appended).toBe(0);
    expect(again.sessions).toHaveLength(27);
    expect(again.teams).toBeUndefined();
  });

  it('roster lists every team with its Lead and members; --team picks one', () => {
    const all = json(['roster']);
    expect(all.teams.length).toBeGreaterThan(5);
    const one = json(['roster', '--team', 'fork-lead']);
    expect(one.teams.map((team: { teamId: string }) => team.teamId)).toEqual(['fork-lead']);
    expect(one.teams[0].lead).toMatchObject({ id: 'fork-lead' });
    expect(
      one.teams[0].members.map((member: { name: string; context: string }) => [member.name, member.context]),
    ).toEqual([
      ['scout', 'fresh'],
      ['helper', 'fork'],
    ]);
    const text = runTeamlog(['roster', '--store', store, '--team', 'fork-lead']).stdout;
    expect(text).toMatch(/helper\s+fork-child\s+active/);
  });

  it('tasks lists tasks with revision and blockers', () => {
    const tasks = json(['tasks', '--team', 'v0-lead']).teams[0].tasks;
    expect(tasks.map((task: { id: string; revision: number }) => [task.id, task.revision])).toEqual([
      ['task-1', 3],
      ['task-2', 2],
      ['task-3', 1],
    ]);
  });

  it('legacy lists the mailbox and the team failure', () => {
    const team = json(['legacy', '--team', 'ldt-lead']).teams[0];
    expect(team.legacyMessages.map((message: { status: string }) => message.status)).toEqual(['undelivered']);
    expect(team.failure.type).toBe('team/message/delivered');
    const text = runTeamlog(['legacy', '--store', store, '--team', 'ldt-lead']).stdout;
    expect(text).toContain('! UNDELIVERED');
    expect(text).toContain('Failure at seq 22');
  });

  it("inbox lists one session's accepted messages; --peer keeps Team and peer messages only", () => {
    const all = json(['inbox', 'direct-reviewer']);
    expect(all.sessionId).toBe('direct-reviewer');
    const peer = json(['inbox', 'direct-reviewer', '--peer']);
    expect(peer.inbox.length).toBeLessThan(all.inbox.length);
    expect(peer.inbox.map((entry: { sourceKind: string }) => entry.sourceKind)).toEqual(['team-relay']);
    expect(peer.inbox[0]).toMatchObject({ senderSessionId: 'direct-lead', list: 'next-step' });
  });

  it('audit lists the findings', () => {
    const audit = json(['audit']).audit;
    expect(audit.find((finding: { code: string }) => finding.code === 'header-sender-mismatch')).toMatchObject({
      sessionId: 'hsm-member',
    });
  });

  it('exits 3 for an unknown team or session', () => {
    const team = runTeamlog(['roster', '--store', store, '--team', 'nobody']);
    expect(team.code).toBe(3);
    expect(team.stderr).toMatch(/^teamlog: no team "nobody" in the store \(teams: .*v0-lead/);
    const session = runTeamlog(['inbox', 'nobody', '--store', store]);
    expect(session.code).toBe(3);
    expect(session.stderr).toBe('teamlog: no session "nobody" in the store\n');
  });

  it('every command answers --help with its usage and exits 0', () => {
    for (const command of [
      'replay',
      'import',
      'roster',
      'tasks',
      'inbox',
      'legacy',
      'audit',
      'export',
      'demo',
      'serve',
      'migrate',
    ]) {
      const run = runTeamlog([command, '--help']);
      expect({ command, code: run.code }).toEqual({ command, code: 0 });
      expect(run.stdout.startsWith(`Usage: teamlog ${command}`)).toBe(true);
    }
  });
});
