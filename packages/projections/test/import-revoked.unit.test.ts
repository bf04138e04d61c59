import { InMemoryEventStore } from '@teamlog/store';
import { appendHeader, appendSession, ev, member, relayItem, splice } from '@teamlog/test-support/session-log-builder';
import { viewsOf } from './views-of';

const directTime = Date.UTC(2026, 9, 2);
const revoked = (file: string) =>
  ev('teamlog/import/revoked', {
    file,
    reason: 'damaged-history',
    message: `${file}:line 4: a seq gap before a turn/end`,
    line: 4,
  });

/** Lead `lead-1` with member `a`, and one relayed message in `a`'s inbox. */
const team = async (store: InMemoryEventStore): Promise<void> => {
  await appendHeader(store, 'lead-1', 4);
  await appendHeader(store, 'a', 4);
  await appendSession(
    store,
    'lead-1',
    [member(2, 'lead-1', 'a', 'alpha', 'provisioning'), member(2, 'lead-1', 'a', 'alpha', 'active')],
    { startTime: directTime },
  );
  await appendSession(store, 'a', [splice('next-turn', 0, [relayItem('r1', 'lead-1', 'lead')])], {
    startTime: directTime,
  });
};

describe('a revoked session (teamlog/import/revoked)', () => {
  it('leaves a revoked Lead out of the teams, as a rejected file would be', async () => {
    const store = new InMemoryEventStore();
    await team(store);
    expect((await viewsOf(store)).teams().map((view) => view.teamId)).toEqual(['lead-1']);
    await appendSession(store, 'lead-1', [revoked('lead-1/session.v4.jsonl')]);
    const views = await viewsOf(store);
    expect(views.teams()).toEqual([]);
    expect(views.session('lead-1' as never)).toBeUndefined();
    expect(views.revoked).toEqual([
      {
        sessionId: 'lead-1',
        file: 'lead-1/session.v4.jsonl',
        reason: 'damaged-history',
        message: 'lead-1/session.v4.jsonl:line 4: a seq gap before a turn/end',
        seq: 2,
        line: 4,
      },
    ]);
  });

  it("leaves a revoked member's inbox out and shows the member as having no log", async () => {
    const store = new InMemoryEventStore();
    await team(store);
    const before = await viewsOf(store);
    expect(before.inbox()).toHaveLength(1);
    await appendSession(store, 'a', [revoked('a/session.v4.jsonl')]);
    const after = await viewsOf(store);
    expect(after.inbox()).toEqual([]);
    expect(after.replay().inbox).toEqual([]);
    expect(after.teams()[0]?.members.map((view) => view.id)).toEqual(['a']);
    expect(after.state.sessions.has('a' as never)).toBe(false);
  });

  it('changes nothing for a store where nothing is revoked (the same state is read)', async () => {
    const store = new InMemoryEventStore();
    await team(store);
    const projections = await viewsOf(store);
    expect(projections.revoked).toEqual([]);
    expect(projections.replay().audit.filter((finding) => finding.code === 'revoked-session')).toEqual([]);
  });
});
