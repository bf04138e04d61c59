import { InMemoryEventStore } from '@teamlog/store';
import { TeamlogProjections } from '@teamlog/projections';
import {
  appendHeader,
  appendSession,
  ev,
  member,
  sid,
  turnEnd,
  turnStart,
} from '@teamlog/test-support/session-log-builder';

const t0 = Date.UTC(2026, 6, 20);

describe('views as of a moment', () => {
  it('as of a position: every event up to and including it', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [member(1, 'lead-1', 'a', 'alpha', 'provisioning')]);
    const then = await appendSession(store, 'lead-1', [member(1, 'lead-1', 'a', 'alpha', 'active')]);
    await appendSession(store, 'lead-1', [member(1, 'lead-1', 'b', 'beta', 'provisioning')]);
    const projections = await TeamlogProjections.inMemory(store);
    await projections.catchUp();
    const past = await projections.viewsAsOf({ position: then });
    expect(past.teams()[0]?.members.map((m) => [m.name, m.phase])).toEqual([['alpha', 'active']]);
    expect(projections.views().teams()[0]?.members).toHaveLength(2);
  });

  it('as of a time: each session up to its first later event, headers whole', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      ev('team/member', member(1, 'lead-1', 'a', 'alpha', 'provisioning').data, t0),
      ev('team/member', member(1, 'lead-1', 'a', 'alpha', 'active').data, t0 + 2_000),
      // A wall clock that went back: written after the event above, so not part of the roster at t0 + 1s.
      ev('team/member', member(1, 'lead-1', 'b', 'beta', 'provisioning').data, t0 + 500),
    ]);
    await appendSession(store, 'a', [
      ev('turn/start', { turn: 1 }, t0 + 900),
      ev('turn/end', { turn: 1, reason: { kind: 'completed' } }, t0 + 1_500),
    ]);
    await appendHeader(store, 'a', 0);
    const projections = await TeamlogProjections.inMemory(store);
    const past = await projections.viewsAsOf({ time: new Date(t0 + 1_000) });
    expect(past.teams()[0]?.members.map((m) => [m.name, m.phase])).toEqual([['alpha', 'provisioning']]);
    expect(past.session(sid('a'))?.lifecycle.status).toBe('running');
    expect(past.session(sid('a'))?.header?.formatVersion).toBe(0);
  });

  it('as of the newest position: the same views as a catch-up', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [member(2, 'lead-1', 'a', 'alpha', 'provisioning'), turnStart(1)]);
    const last = await appendSession(store, 'a', [turnStart(1), turnEnd(1)]);
    const projections = await TeamlogProjections.inMemory(store);
    await projections.catchUp();
    expect((await projections.viewsAsOf({ position: last })).replay()).toEqual(projections.views().replay());
  });
});
