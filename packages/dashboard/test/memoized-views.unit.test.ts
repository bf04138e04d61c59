import { initialProjectionState } from '@teamlog/projections';
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
});
