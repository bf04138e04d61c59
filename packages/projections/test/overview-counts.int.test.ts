import { InMemoryEventStore } from '@teamlog/store';
import { type TeamlogViews, readOverviewCounts } from '@teamlog/projections';
import { importFixtures, realFixtures, syntheticFixtures } from '@teamlog/test-support/fixture-import';
import { viewsOf } from './views-of';

/* The overview's counts come from the sizes the folds keep; they must equal what the whole views list. */

const countsFromWholeViews = (views: TeamlogViews) => {
  const teams = views.teams();
  const legacy = teams.flatMap((team) => team.legacyMessages);
  return {
    sessions: views.state.sessions.size,
    teams: teams.length,
    inboxEntries: views.inbox().length,
    auditFindings: views.audit().length,
    legacyMessages: legacy.length,
    undeliveredLegacyMessages: legacy.filter((message) => message.status === 'undelivered').length,
    failedTeams: teams.filter((team) => team.failure !== null).length,
  };
};

describe('readOverviewCounts', () => {
  it.each([
    ['the synthetic fixtures (forks, failed teams, legacy mailboxes)', syntheticFixtures],
    ['the real historical logs', realFixtures],
  ])(
    'given %s, then every count equals the count of the whole view it stands for',
    async (_name, root) => {
      const store = new InMemoryEventStore();
      await importFixtures(store, root);
      const views = await viewsOf(store);
      const expected = countsFromWholeViews(views);
      expect(readOverviewCounts(views.state, expected.auditFindings)).toEqual(expected);
      expect(views.overview()).toEqual(expected);
      expect(expected.sessions).toBeGreaterThan(0);
    },
    120_000,
  );

  it("given a fork whose inherited entries are its parent's, then they are not counted again", async () => {
    const store = new InMemoryEventStore();
    await importFixtures(store, syntheticFixtures);
    const views = await viewsOf(store);
    const everyEntry = [...views.state.inboxes.values()].reduce((sum, inbox) => sum + inbox.state.entries.length, 0);
    // The synthetic fixtures hold forks: the raw entry count is larger than the entries the views list.
    expect(everyEntry).toBeGreaterThan(views.inbox().length);
    expect(views.overview().inboxEntries).toBe(views.inbox().length);
  }, 120_000);
});
