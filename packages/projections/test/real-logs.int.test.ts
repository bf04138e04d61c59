import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import type { TeamlogViews } from '@teamlog/projections';
import { importFixtures, realFixtures } from '@teamlog/test-support/fixture-import';
import { tempFile } from './temp-file';

/* The real historical logs (fixtures/dsh-logs) through the importer into a real SQLite file. */

const scope = 'index-1394225561/snapshots/session/team-direct-inbox';
const lead = `{{session:1}}@${scope}`;
const reviewer = `{{session:2}}@${scope}`;

let views: TeamlogViews;
let cleanup: () => void;
let store: SqliteEventStore;

beforeAll(async () => {
  const temp = tempFile();
  cleanup = temp.cleanup;
  store = SqliteEventStore.open(temp.file);
  const imported = await importFixtures(store, realFixtures);
  expect(imported.report.imported).toBeGreaterThan(0);
  const projections = await sqliteProjections(store);
  await projections.catchUp();
  views = projections.views();
}, 120_000);

afterAll(async () => {
  await store.close();
  cleanup();
});

describe('real historical logs', () => {
  it('builds the only real Team (V4 snapshot, normalised) with its placeholder ids resolved in the fixture scope', () => {
    expect(views.teams()).toEqual([
      {
        teamId: lead,
        lead: { id: lead, status: 'idle' },
        members: [
          expect.objectContaining({
            id: reviewer,
            name: 'reviewer',
            phase: 'active',
            provider: 'spawn',
            context: 'fresh',
            status: 'idle',
          }),
        ],
        tasks: [],
        legacyMessages: [],
        failure: null,
      },
    ]);
  });

  it('shows the team-relay message steered to the teammate and canceled when its turn was aborted', () => {
    expect(views.inbox({ peerOnly: true })).toEqual([
      expect.objectContaining({
        sessionId: reviewer,
        messageId: `{{message:17}}@${scope}`,
        sourceKind: 'team-relay',
        senderSessionId: lead,
        senderName: 'lead',
        list: 'next-step',
        status: 'canceled',
      }),
    ]);
  });

  it('lists the human prompts of every imported log as inbox acceptances too', () => {
    expect(views.inbox().filter((entry) => entry.sourceKind === 'user').length).toBeGreaterThan(50);
  });

  it('finds no attribution problem in real logs', () => {
    expect(views.audit()).toEqual([]);
  });

  it('counts the one real Team message for the dashboard, without a claim latency (it was canceled)', () => {
    const statistics = views.statistics();
    expect(statistics.messagesPerPair).toEqual([
      { senderSessionId: lead, targetSessionId: reviewer, accepted: 1, legacyQueued: 0 },
    ]);
    expect(statistics.claimLatency.messages).toEqual([]);
  });
});
