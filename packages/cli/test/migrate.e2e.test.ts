import { join } from 'node:path';
import { runTeamlog, storedEventCount, temporaryDirectory } from './run-teamlog';

describe('teamlog migrate', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  it('copies every stream into another store, verified, and a second run copies nothing', () => {
    const from = join(directory.path, 'from.db');
    const to = join(directory.path, 'to.db');
    expect(runTeamlog(['replay', 'fixtures/synthetic/v0-mailbox', '--store', from]).code).toBe(0);
    const first = runTeamlog(['migrate', '--from', from, '--to', to, '--json']);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.eventsCopied).toBe(storedEventCount(from));
    expect(storedEventCount(to)).toBe(storedEventCount(from));
    const again = JSON.parse(runTeamlog(['migrate', '--from', from, '--to', to, '--json']).stdout);
    expect(again).toMatchObject({ eventsCopied: 0, eventsAlreadyPresent: report.events });
    // The views rebuilt on the target show the same team.
    const roster = (store: string) => JSON.parse(runTeamlog(['roster', '--store', store, '--json']).stdout);
    expect(roster(to)).toEqual(roster(from));
  });

  it('needs --from and --to (exit 2) and an existing source (exit 3)', () => {
    expect(runTeamlog(['migrate', '--to', 'esdb://localhost:2113']).code).toBe(2);
    expect(runTeamlog(['migrate', '--from', 'x.db']).code).toBe(2);
    const missing = runTeamlog([
      'migrate',
      '--from',
      join(directory.path, 'none.db'),
      '--to',
      join(directory.path, 'x.db'),
    ]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('none.db: no teamlog store here');
  });
});
