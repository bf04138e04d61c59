import { KeptAudit, initialProjectionState } from '@teamlog/projections';
import { KeptStatistics } from '../src/kept-statistics';
import { KeptTeams } from '../src/kept-teams';
import { MemoizedViews } from '../src/memoized-views';

describe('MemoizedViews', () => {
  it('given one state, when a whole view is read twice, then it is computed once and shared', () => {
    const views = new MemoizedViews(initialProjectionState());
    expect(views.teams()).toBe(views.teams());
    expect(views.audit()).toBe(views.audit());
    expect(views.inbox()).toBe(views.inbox());
    expect(views.statistics()).toBe(views.statistics());
    expect(views.overview()).toBe(views.overview());
  });

  it('given a filtered inbox query, then it is computed on each call (only whole views are kept)', () => {
    const views = new MemoizedViews(initialProjectionState());
    expect(views.inbox({ peerOnly: true })).not.toBe(views.inbox({ peerOnly: true }));
  });

  it('given reads kept over the live views, then the teams, statistics and audit of each checkpoint come from them', () => {
    const state = initialProjectionState();
    const kept = { audit: new KeptAudit(), statistics: new KeptStatistics(), teams: new KeptTeams() };
    const teams = jest.spyOn(kept.teams, 'read');
    const statistics = jest.spyOn(kept.statistics, 'read');
    const audit = jest.spyOn(kept.audit, 'read');
    const views = new MemoizedViews(state, undefined, kept);
    views.teams();
    views.boundedStatistics();
    views.audit();
    new MemoizedViews(state, undefined, kept).boundedStatistics();
    expect([teams.mock.calls.length, statistics.mock.calls.length, audit.mock.calls.length]).toEqual([1, 2, 1]);
  });
});
