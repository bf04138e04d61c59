import {
  appendEarlierGenerations,
  appendLaterGenerations,
  supersede,
  supersededSessions,
} from '@teamlog/test-support/superseded-history';
import type { ConversationAnswer, FailuresAnswer, FlowAnswer, MomentsAnswer } from '../client/api-shapes';
import type { EventDocument } from '../src/event-document';
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

  it.each(supersededSessions)(
    "serves %s's event at a seq from the later generation, as a one-shot replay of the later file stores it",
    async (sessionId) => {
      for (const seq of ['0', '1']) {
        const shown = async (served: Served) => {
          const { status, body } = await api<{ event: EventDocument }>(served, '/api/event', { sessionId, seq });
          return status === 200
            ? { type: body.event.type, data: body.event.data, metadata: body.event.metadata }
            : status;
        };
        expect(await shown(superseded)).toEqual(await shown(oneShot));
      }
    },
  );

  it("shows the team's message flow with the texts of the later generation's events", async () => {
    const { body } = await api<FlowAnswer>(superseded, '/api/message-flow', { teamId: 'lead-1' });
    const reference = await api<FlowAnswer>(oneShot, '/api/message-flow', { teamId: 'lead-1' });
    expect(body.flow.messages.length).toBeGreaterThan(0);
    expect(body.flow).toEqual(reference.body.flow);
  });

  it("shows the Team's failure with the later generation's record that caused it", async () => {
    const shown = async (served: Served) =>
      (await api<FailuresAnswer>(served, '/api/failures', { teamId: 'lead-1' })).body.failures.map((row) => ({
        failure: row.failure,
        type: row.record?.type,
        data: row.record?.data,
      }));
    const failures = await shown(superseded);
    expect(failures).toHaveLength(1);
    expect(failures).toEqual(await shown(oneShot));
  });

  it("steps the time control through the later generation's events alone, seqs counted from the record", async () => {
    const { body } = await api<MomentsAnswer>(superseded, '/api/moments', { teamId: 'lead-1' });
    const reference = await api<MomentsAnswer>(oneShot, '/api/moments', { teamId: 'lead-1' });
    const steps = (moments: MomentsAnswer['moments']) =>
      moments.map(({ sessionId, seq, type, time }) => ({ sessionId, seq, type, time }));
    expect(body.moments.length).toBeGreaterThan(0);
    expect(steps(body.moments)).toEqual(steps(reference.body.moments));
  });
});
