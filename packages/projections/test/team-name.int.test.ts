import { sequentialIds } from '@teamlog/events';
import { InMemoryEventStore } from '@teamlog/store';
import { createTeamLog } from '@teamlog/team';
import { viewsOf } from './views-of';

/* A team the engine creates carries a readable name into the views (TeamView.name). */

describe('team names in the views', () => {
  it('given teams created with a name, with only a working directory, and with neither, then each team view shows what was given', async () => {
    const store = new InMemoryEventStore();
    const teamlog = createTeamLog({ store, ids: sequentialIds('t'), clock: () => new Date(Date.UTC(2026, 9, 10)) });
    const named = await teamlog.createTeam({ name: 'release crew', cwd: '/srv/ignored' });
    const fromCwd = await teamlog.createTeam({ cwd: '/home/ada/site' });
    const nameless = await teamlog.createTeam();
    // A team is listed once it holds a Team record of its own: give each one member.
    for (const lead of [named, fromCwd, nameless])
      await lead.spawnMember({ name: 'helper', description: 'helps', provider: 'scripted' });
    await teamlog.dispose();

    const names = new Map((await viewsOf(store)).teams().map((team) => [team.teamId, team.name]));
    expect(names.get(named.teamId)).toBe('release crew');
    expect(names.get(fromCwd.teamId)).toBe('site');
    expect(names.has(nameless.teamId)).toBe(true);
    expect(names.get(nameless.teamId)).toBeUndefined();
  });
});
