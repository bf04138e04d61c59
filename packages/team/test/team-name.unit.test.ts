import { teamNameOf } from '../src/team-name';

describe('teamNameOf', () => {
  it('given a name, then the team has that name (trimmed), whatever its working directory', () => {
    expect(teamNameOf({ name: '  release crew ', cwd: '/home/ada/teamlog' })).toBe('release crew');
  });

  it("given no name, then the team is named after the last segment of the Lead's working directory", () => {
    expect(teamNameOf({ cwd: '/home/ada/teamlog/' })).toBe('teamlog');
    expect(teamNameOf({ cwd: 'C:\\work\\site' })).toBe('site');
  });

  it('given a blank name and no working directory (or the root), then the team has no name', () => {
    expect(teamNameOf({ name: '   ' })).toBeUndefined();
    expect(teamNameOf({ cwd: '/' })).toBeUndefined();
    expect(teamNameOf({})).toBeUndefined();
  });
});
