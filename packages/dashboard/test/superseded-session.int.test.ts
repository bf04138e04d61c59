import {
  appendEarlierGenerations,
  appendLaterGenerations,
  supersede,
  supersededSessions,
} from '@teamlog/test-support/superseded-history';
import type { ConversationAnswer, MomentsAnswer } from '../client/api-shapes';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { type FixtureStore, openFixtureStore } from './fixture-store';
import { getJson } from './http-client';

/* A session a later generation superseded reads as that generation alone (docs/rules.md#import-superseded). */

interface Served {
  readonly fixture: FixtureStore;
  readonly server: DashboardServer;
}

let superseded: Served;
let oneShot: Served;

const serve = async (append: (fixture: FixtureStore) => Promise<void>): Promise<Served> => {
  const fixture = openFixtureStore();
  await append(fixture);
  return { fixture, server: await startDashboardServer({ store: fixture.store, port: 0 }) };
};

beforeAll(async () => {
  superseded = await serve(async ({ store }) => {
    await appendEarlierGenerations(store);
    for (const id of supersededSessions) await supersede(store, id);
  });
  // The reference: a one-shot replay of the later files alone.
  oneShot = await serve(({ store }) => appendLaterGenerations(store));
}, 60_000);

afterAll(async () => {
  for (const served of [superseded, oneShot]) {
    await served?.server.close();
    await served?.fixture.dispose();
  }
});

const api = <T>(served: Served, path: string, params: Record<string, string>) =>
  getJson<T>(new URL(`${path}?${new URLSearchParams(params).toString()}`, served.server.url).toString());

describe('the dashboard on a superseded session', () => {
  it.each(supersededSessions)(
    "reads %s's conversation from after the supersession record, seqs counted from there, as a one-shot replay of the later file reads it",
    async (sessionId) => {
      const { status, body } = await api<ConversationAnswer>(superseded, '/api/conversation', { sessionId });
      const reference = await api<ConversationAnswer>(oneShot, '/api/conversation', { sessionId });
      expect(status).toBe(200);
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.items).toEqual(reference.body.items);
      const paged = await api<ConversationAnswer>(superseded, '/api/conversation', { sessionId, fromSeq: '1' });
      expect(paged.body.items).toEqual(reference.body.items.filter((item) => item.seq >= 1));
    },
  );

  it("steps the time control through the later generation's events alone, seqs counted from the record", async () => {
    const { body } = await api<MomentsAnswer>(superseded, '/api/moments', { teamId: 'lead-1' });
    const reference = await api<MomentsAnswer>(oneShot, '/api/moments', { teamId: 'lead-1' });
    const steps = (moments: MomentsAnswer['moments']) =>
      moments.map(({ sessionId, seq, type, time }) => ({ sessionId, seq, type, time }));
    expect(body.moments.length).toBeGreaterThan(0);
    expect(steps(body.moments)).toEqual(steps(reference.body.moments));
  });
});
