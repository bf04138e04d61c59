import { join } from 'node:path';
import { isRight } from 'fp-ts/Either';
import { ReplayDocument } from '../src/replay-document';
import { runTeamlog, storedStream, temporaryDirectory } from './run-teamlog';

describe('teamlog replay --as-of', () => {
  const directory = temporaryDirectory();
  const store = join(directory.path, 'as-of.db');
  afterAll(() => directory.cleanup());

  const replay = (asOf: string | undefined): ReplayDocument => {
    const run = runTeamlog([
      'replay',
      'fixtures/synthetic/v0-mailbox',
      '--store',
      store,
      '--json',
      ...(asOf === undefined ? [] : ['--as-of', asOf]),
    ]);
    expect(run.code).toBe(0);
    const decoded = ReplayDocument.decode(JSON.parse(run.stdout));
    if (!isRight(decoded)) throw new Error('the replay document does not decode');
    return decoded.right;
  };

  let full: ReplayDocument;
  let firstMember: { readonly position: number; readonly time: number };

  beforeAll(() => {
    full = replay(undefined);
    // Found in the SQLite file itself: positions are the store's, not computed by the CLI under test.
    const row = storedStream(store, 'session-v0-lead').find((event) => event.type === 'team/member');
    if (row === undefined || row.metadata === null) throw new Error('v0-lead has no team/member event');
    firstMember = { position: row.position, time: (JSON.parse(row.metadata) as { time: number }).time };
  }, 60_000);

  it('shows the whole history without --as-of', () => {
    expect(full.teams[0]?.members).toHaveLength(3);
    expect(full.teams[0]?.legacyMessages).toHaveLength(4);
    expect(full.asOf).toBeUndefined();
  });

  it('at the position of the first member record shows that member as it was then, and nothing later', () => {
    const then = replay(String(firstMember.position));
    expect(then.asOf).toBe(`${firstMember.position}/${firstMember.position}`);
    expect(then.teams.map((team) => team.members.map((member) => [member.name, member.phase]))).toEqual([
      [['reviewer', 'provisioning']],
    ]);
    expect(then.teams[0]?.tasks).toEqual([]);
    expect(then.teams[0]?.legacyMessages).toEqual([]);
    // The import itself is not cut: the sessions list what the files hold.
    expect(then.sessions).toEqual(
      full.sessions.map((session) => ({ ...session, appended: 0, alreadyStored: session.events })),
    );
  });

  it('at an ISO time cuts each session log at its first event later than that time', () => {
    const then = replay(new Date(firstMember.time).toISOString());
    expect(then.teams[0]?.members.map((member) => member.name)).toEqual(['reviewer']);
  });

  it('before anything was stored shows no team', () => {
    expect(replay('0').teams).toEqual([]);
  });

  it('works on the view commands too', () => {
    const run = runTeamlog(['roster', '--store', store, '--json', '--as-of', String(firstMember.position)]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).teams[0].members).toHaveLength(1);
  });
});
