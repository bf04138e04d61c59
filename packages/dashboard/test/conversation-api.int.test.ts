import type {
  AuditAnswer,
  ConversationAnswer,
  FlowAnswer,
  LegacyMailboxAnswer,
  MomentsAnswer,
  TeamsAnswer,
} from '../client/api-shapes';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { type FixtureStore, importHistoricalFixtures, openFixtureStore } from './fixture-store';
import { getJson } from './http-client';
import { appendAtlasTeam, atlas, atlasMessages } from './native-team';

/* The routes behind the conversation, the time control, message texts and the scoped panels. */

let fixture: FixtureStore;
let server: DashboardServer;

const api = <T>(path: string) => getJson<T>(new URL(path, server.url).toString());
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

beforeAll(async () => {
  fixture = openFixtureStore();
  await appendAtlasTeam(fixture.store);
  await importHistoricalFixtures(fixture.store);
  server = await startDashboardServer({ store: fixture.store, port: 0 });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fixture?.dispose();
});

describe('the conversation, moments and texts of the dashboard API', () => {
  it("reads a member's conversation: each Team message once, with sender, delivery, status and text, between its turns", async () => {
    const { status, body } = await api<ConversationAnswer>(`/api/conversation?${query({ sessionId: atlas.writer })}`);
    expect(status).toBe(200);
    expect(
      body.items.map((item) => [item.seq, item.kind, item.author, item.delivery ?? null, item.status ?? null]),
    ).toEqual([
      [0, 'lifecycle', 'teamlog', null, null],
      [2, 'team-message', 'lead', 'next-turn', 'claimed'],
      [3, 'turn', 'teamlog', null, null],
      [6, 'team-message', 'reviewer', 'next-step', 'canceled'],
    ]);
    expect(body.items[1]?.text).toBe(`Team message from lead:\n${atlasMessages.notes.content[1]?.text}`);
    expect(body.nextSeq).toBeUndefined();
  });

  it('cuts the conversation at a moment: the statuses are the ones of that moment', async () => {
    const { body: moments } = await api<MomentsAnswer>(`/api/moments?${query({ teamId: atlas.teamId })}`);
    const accepted = moments.moments.find((moment) => moment.sessionId === atlas.writer && moment.seq === 2);
    const { body } = await api<ConversationAnswer>(
      `/api/conversation?${query({ sessionId: atlas.writer, asOf: accepted?.position ?? '' })}`,
    );
    expect(body.asOf).toBe(accepted?.position);
    expect(body.items.map((item) => [item.seq, item.kind, item.status ?? null])).toEqual([
      [0, 'lifecycle', null],
      [2, 'team-message', 'pending'],
    ]);
  });

  it("lists the team's events in $all order as the time control's steps", async () => {
    const { body } = await api<MomentsAnswer>(`/api/moments?${query({ teamId: atlas.teamId })}`);
    const positions = body.moments.map((moment) => moment.position.split('/').map(BigInt)[0] as bigint);
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(body.moments.map((moment) => moment.sessionId))).toEqual(
      new Set([atlas.lead, atlas.reviewer, atlas.writer]),
    );
    // 14 Lead events, 7 of the reviewer and 8 of the writer.
    expect(body.moments).toHaveLength(14 + 7 + 8);
  });

  it('answers 404 for a session or team the views do not hold, and 400 for a bad fromSeq', async () => {
    expect((await api(`/api/conversation?${query({ sessionId: 'nobody' })}`)).status).toBe(404);
    expect((await api(`/api/moments?${query({ teamId: 'nobody' })}`)).status).toBe(404);
    const bad = await api<{ error: string }>(`/api/conversation?${query({ sessionId: atlas.writer, fromSeq: 'x' })}`);
    expect([bad.status, bad.body.error]).toEqual([400, expect.stringContaining('query parameter "fromSeq"')]);
  });

  it('gives each message of the flow its text, read from the event that records it', async () => {
    const { body } = await api<FlowAnswer>(`/api/message-flow?${query({ teamId: atlas.teamId })}`);
    expect(body.flow.messages.map((message) => message.text)).toEqual(
      [atlasMessages.review, atlasMessages.findings, atlasMessages.notes, atlasMessages.hint].map((message) =>
        message.content.map((block) => block.text).join('\n'),
      ),
    );
  });

  it('gives each legacy mailbox message its text, and each audit finding an explanation; a team scope keeps its own', async () => {
    const { body } = await api<LegacyMailboxAnswer>('/api/legacy-mailbox');
    expect(body.messages.length).toBeGreaterThan(0);
    expect(body.messages.every((message) => typeof message.text === 'string' && message.text !== '')).toBe(true);
    const { body: audit } = await api<AuditAnswer>('/api/audit');
    expect(audit.findings.every((finding) => finding.explanation.length > 10)).toBe(true);
    const teamId = audit.findings.find((finding) => finding.teamId !== undefined)?.teamId ?? '';
    const { body: scoped } = await api<AuditAnswer>(`/api/audit?${query({ teamId })}`);
    expect(scoped.findings.length).toBeGreaterThan(0);
    expect(scoped.findings.every((finding) => finding.teamId === teamId || finding.teamId === undefined)).toBe(true);
  });

  it('says when each team was last active; an engine team without a recorded name has none', async () => {
    const { body } = await api<TeamsAnswer>(`/api/teams?${query({ teamId: atlas.teamId })}`);
    expect(body.teams[0]?.lastActive).toBe(Date.UTC(2026, 9, 5, 9) + 60_000 + 7 * 1000);
    expect(body.teams[0]?.name).toBeUndefined();
  });
});
