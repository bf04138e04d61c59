import type { SessionId } from '@teamlog/events';
import { sessionStream } from '@teamlog/store';
import { TeamlogProjections } from '@teamlog/projections';
import type {
  AuditAnswer,
  EventAnswer,
  FailuresAnswer,
  InboxAnswer,
  LegacyMailboxAnswer,
  OverviewAnswer,
  TeamsAnswer,
} from '../client/api-shapes';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import type { MessageFlow } from '../src/message-flow';
import { type FixtureStore, importHistoricalFixtures, openFixtureStore } from './fixture-store';
import { getJson, request } from './http-client';
import { appendAtlasTeam, atlas, atlasMessages } from './native-team';

let fixture: FixtureStore;
let server: DashboardServer;
let oracle: TeamlogProjections;

const api = (path: string): string => new URL(path, server.url).toString();

beforeAll(async () => {
  fixture = openFixtureStore();
  await appendAtlasTeam(fixture.store);
  await importHistoricalFixtures(fixture.store);
  server = await startDashboardServer({ store: fixture.store, port: 0 });
  // The projections package read directly: what the dashboard must show.
  oracle = await TeamlogProjections.inMemory(fixture.store);
  await oracle.catchUp();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fixture?.dispose();
});

describe('the dashboard JSON API over a store with a native team and the historical fixtures', () => {
  it('shows a team’s roster with each member’s status, and its task board', async () => {
    const { status, body } = await getJson<TeamsAnswer>(api(`/api/teams?teamId=${atlas.teamId}`));
    expect(status).toBe(200);
    const [team] = body.teams;
    expect(team?.lead).toEqual({ id: atlas.lead, status: 'idle' });
    expect(team?.members.map((member) => [member.name, member.phase, member.status])).toEqual([
      ['reviewer', 'active', 'idle'],
      ['writer', 'active', 'running'],
    ]);
    expect(team?.tasks?.map((task) => [task.id, task.status, task.ownerId ?? null, task.blockedBy])).toEqual([
      ['task-1', 'in_progress', atlas.reviewer, []],
      ['task-2', 'pending', null, ['task-1']],
    ]);
  });

  it('lists every team the projections hold, and says which checkpoint the answer shows', async () => {
    const { body } = await getJson<TeamsAnswer>(api('/api/teams'));
    expect(body.teams.map((team) => team.teamId)).toEqual(
      oracle
        .views()
        .teams()
        .map((team) => team.teamId),
    );
    expect(body.checkpoint).toBe(`${oracle.checkpoint?.commit}/${oracle.checkpoint?.prepare}`);
  });

  it('shows a session’s inbox timeline: accepted, claimed and canceled, in seq order', async () => {
    const { body } = await getJson<InboxAnswer>(api(`/api/inbox?sessionId=${atlas.writer}`));
    expect(body.timeline.map((item) => [item.seq, item.kind, item.messageId, item.senderName])).toEqual([
      [2, 'accepted', atlasMessages.notes.id, 'lead'],
      [4, 'claimed', atlasMessages.notes.id, 'lead'],
      [6, 'accepted', atlasMessages.hint.id, 'reviewer'],
      [7, 'canceled', atlasMessages.hint.id, 'reviewer'],
    ]);
  });

  it('filters an inbox by status', async () => {
    const { body } = await getJson<InboxAnswer & { entries: Array<{ messageId: string }> }>(
      api(`/api/inbox?sessionId=${atlas.writer}&status=canceled`),
    );
    expect(body.entries.map((entry) => entry.messageId)).toEqual([atlasMessages.hint.id]);
  });

  it('gives the message flow between the Lead and its members in order', async () => {
    const { body } = await getJson<{ flow: MessageFlow }>(api(`/api/message-flow?teamId=${atlas.teamId}`));
    expect(body.flow.participants.map((participant) => participant.name)).toEqual(['lead', 'reviewer', 'writer']);
    expect(body.flow.messages.map((message) => [message.from, message.to, message.status])).toEqual([
      [atlas.lead, atlas.reviewer, 'claimed'],
      [atlas.reviewer, atlas.lead, 'claimed'],
      [atlas.lead, atlas.writer, 'claimed'],
      [atlas.reviewer, atlas.writer, 'canceled'],
    ]);
  });

  it('draws the message flow as SVG, one arrow per message', async () => {
    const answer = await request(api(`/api/message-flow.svg?teamId=${atlas.teamId}`));
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('image/svg+xml; charset=utf-8');
    expect(answer.text.match(/<g class="flow-arrow /g)).toHaveLength(4);
    expect(answer.text).toContain(`data-from="${atlas.reviewer}" data-to="${atlas.writer}"`);
  });

  it('lists the legacy mailbox, filtered to undelivered messages on request', async () => {
    const all = await getJson<LegacyMailboxAnswer>(api('/api/legacy-mailbox'));
    const undelivered = await getJson<LegacyMailboxAnswer>(api('/api/legacy-mailbox?status=undelivered'));
    const expected = oracle
      .views()
      .teams()
      .flatMap((team) => team.legacyMessages.map((message) => [team.teamId, message.id, message.status]));
    expect(all.body.messages.map((message) => [message.teamId, message.id, message.status])).toEqual(expected);
    expect(undelivered.body.messages.length).toBeGreaterThan(0);
    expect(undelivered.body.messages.map((message) => message.id)).toEqual(
      expected.filter((row) => row[2] === 'undelivered').map((row) => row[1]),
    );
  });

  it('pages the legacy mailbox: at most `limit` rows from `offset`, with the total and the next offset', async () => {
    const expected = oracle
      .views()
      .teams()
      .flatMap((team) => team.legacyMessages.map((message) => message.id));
    expect(expected.length).toBeGreaterThan(2);
    const page = await getJson<LegacyMailboxAnswer>(api('/api/legacy-mailbox?offset=1&limit=2'));
    expect([page.body.messages.map((message) => message.id), page.body.total, page.body.nextOffset]).toEqual([
      expected.slice(1, 3),
      expected.length,
      3,
    ]);
    const rest = await getJson<LegacyMailboxAnswer>(api(`/api/legacy-mailbox?offset=${expected.length - 1}`));
    expect([rest.body.messages.map((message) => message.id), rest.body.nextOffset]).toEqual([
      expected.slice(-1),
      undefined,
    ]);
  });

  it('counts a team’s legacy mailbox in /api/teams instead of listing it', async () => {
    const { body } = await getJson<TeamsAnswer>(api('/api/teams'));
    const counts = new Map(
      oracle
        .views()
        .teams()
        .map((team) => [team.teamId, team.legacyMessages.length]),
    );
    expect(body.teams.map((team) => [team.teamId, team.legacyMessageCount])).toEqual([...counts]);
    expect(body.teams.some((team) => 'legacyMessages' in team)).toBe(false);
  });

  it('lists every team with its tasks counted, and gives the task board only for one team', async () => {
    const { body } = await getJson<TeamsAnswer>(api('/api/teams'));
    const tasks = new Map(
      oracle
        .views()
        .teams()
        .map((team) => [team.teamId, team.tasks.length]),
    );
    expect(body.teams.map((team) => [team.teamId, team.taskCount])).toEqual([...tasks]);
    expect(body.teams.some((team) => team.tasks !== undefined)).toBe(false);
    const one = await getJson<TeamsAnswer>(api(`/api/teams?teamId=${atlas.teamId}`));
    expect(one.body.teams[0]?.tasks).toHaveLength(tasks.get(atlas.teamId) ?? -1);
  });

  it('lists the audit findings, each linked to the event that shows it', async () => {
    const { body } = await getJson<AuditAnswer>(api('/api/audit'));
    expect(body.findings.map((finding) => [finding.code, finding.sessionId, finding.seq])).toEqual(
      oracle
        .views()
        .audit()
        .map((finding) => [finding.code, finding.sessionId, finding.seq]),
    );
    const finding = body.findings.find((candidate) => candidate.seq >= 0);
    expect(finding).toBeDefined();
    const linked = await getJson<EventAnswer>(api(finding?.eventUrl ?? ''));
    expect(linked.status).toBe(200);
    expect([linked.body.event.sessionId, linked.body.event.seq, linked.body.event.streamName]).toEqual([
      finding?.sessionId,
      finding?.seq,
      `session-${finding?.sessionId}`,
    ]);
  });

  it('filters audit findings by code', async () => {
    const findings = oracle.views().audit();
    const code = findings[0]?.code;
    expect(code).toBeDefined();
    const { body } = await getJson<AuditAnswer>(api(`/api/audit?code=${code}`));
    expect(body.findings.map((finding) => [finding.code, finding.sessionId, finding.seq])).toEqual(
      findings
        .filter((finding) => finding.code === code)
        .map((finding) => [finding.code, finding.sessionId, finding.seq]),
    );
  });

  it('lists team projection failures with the record that caused each', async () => {
    const { body } = await getJson<FailuresAnswer>(api('/api/failures'));
    const failed = oracle
      .views()
      .teams()
      .filter((team) => team.failure !== null);
    expect(failed.length).toBeGreaterThan(0);
    expect(body.failures.map((row) => [row.teamId, row.failure.seq])).toEqual(
      failed.map((team) => [team.teamId, team.failure?.seq]),
    );
    for (const row of body.failures) {
      expect([row.record?.sessionId, row.record?.seq, row.record?.type]).toEqual([
        row.teamId,
        row.failure.seq,
        row.failure.type,
      ]);
    }
  });

  it('serves one stored event, and a session’s header at seq -1', async () => {
    const first = await getJson<EventAnswer>(api(`/api/event?sessionId=${atlas.lead}&seq=0`));
    expect([first.body.event.type, first.body.event.data]).toEqual([
      'teamlog/session/created',
      { teamId: atlas.teamId, role: 'lead', name: 'lead' },
    ]);
    const imported = oracle
      .views()
      .teams()
      .find((team) => team.teamId !== atlas.teamId)?.lead.id as SessionId;
    const header = await getJson<EventAnswer>(api(`/api/event?sessionId=${encodeURIComponent(imported)}&seq=-1`));
    expect([header.status, header.body.event.type, header.body.event.streamName]).toEqual([
      200,
      'teamlog/session/header',
      `sessionheader-${imported}`,
    ]);
  });

  it('counts what each panel shows', async () => {
    const { body } = await getJson<OverviewAnswer>(api('/api/overview'));
    const views = oracle.views();
    expect(body.overview).toEqual({
      sessions: views.state.sessions.size,
      teams: views.teams().length,
      inboxEntries: views.inbox().length,
      auditFindings: views.audit().length,
      legacyMessages: views.teams().reduce((sum, team) => sum + team.legacyMessages.length, 0),
      undeliveredLegacyMessages: views
        .statistics()
        .undeliveredLegacyPerTeam.reduce((sum, team) => sum + team.undelivered, 0),
      failedTeams: views.statistics().failures.length,
    });
  });

  it('reads the views as of a moment: the Lead stream cut at that time', async () => {
    const beforeWriter = new Date(Date.UTC(2026, 9, 5, 9) + 3500).toISOString();
    const { body } = await getJson<TeamsAnswer>(api(`/api/teams?teamId=${atlas.teamId}&asOf=${beforeWriter}`));
    expect(body.asOf).toBe(beforeWriter);
    expect(body.teams[0]?.members.map((member) => [member.name, member.phase])).toEqual([['reviewer', 'active']]);
  });

  it('lists its routes and their parameters at /api', async () => {
    const { body } = await getJson<{ routes: Array<{ path: string; parameters: string[] }> }>(api('/api'));
    expect(body.routes.find((route) => route.path === '/api/inbox')?.parameters).toEqual([
      'sessionId',
      'status',
      'peerOnly',
      'asOf',
    ]);
    expect(body.routes.map((route) => route.path)).toContain('/api/stream');
  });
});

describe('the dashboard JSON API refuses bad queries with 400 and a clear message', () => {
  const cases: Array<[string, string]> = [
    ['/api/inbox', 'query parameter "sessionId": missing; this route requires it'],
    ['/api/inbox?sessionId=', 'query parameter "sessionId": expected a session id (1 to 512 characters), got ""'],
    [
      '/api/inbox?sessionId=a&status=done',
      'query parameter "status": expected one of pending, claimed, canceled, got "done"',
    ],
    ['/api/inbox?sessionId=a&peerOnly=yes', 'query parameter "peerOnly": expected true or false, got "yes"'],
    ['/api/teams?team=x', 'query parameter "team": unknown parameter; this route takes teamId, asOf'],
    ['/api/teams?teamId=a&teamId=b', 'query parameter "teamId": given more than once'],
    ['/api/event?sessionId=a&seq=-2', 'query parameter "seq": expected an integer seq ≥ -1, got "-2"'],
    ['/api/event?sessionId=a', 'query parameter "seq": missing; this route requires it'],
    [
      '/api/audit?code=nope',
      'query parameter "code": expected one of header-sender-mismatch, header-message-id-mismatch, missing-sender-header, roster-name-mismatch, sender-not-in-team, source-kind-outside-era, team-record-outside-era, legacy-delivered-to-other-target, duplicate-acceptance, undecodable-event, writer-missing, writer-not-sender, sender-stream-missing, sender-closed, sender-in-other-team, sender-not-in-roster, message-id-reused, revoked-session, got "nope"',
    ],
    ['/api/legacy-mailbox?status=lost', 'query parameter "status": expected one of delivered, undelivered, got "lost"'],
    ['/api/legacy-mailbox?limit=1001', 'query parameter "limit": expected an integer from 1 to 1000, got "1001"'],
    [
      '/api/legacy-mailbox?offset=-1',
      'query parameter "offset": expected an integer from 0 to 9007199254740991, got "-1"',
    ],
    ['/api/message-flow', 'query parameter "teamId": missing; this route requires it'],
    [
      '/api/message-flow.svg?teamId=a&asOf=yesterday',
      'query parameter "asOf": expected a global position (e.g. 42 or 42/42) or a UTC time (e.g. 2026-09-26T12:00:00Z), got "yesterday"',
    ],
    ['/api/overview?verbose=true', 'query parameter "verbose": unknown parameter; this route takes asOf'],
    ['/api/stream?since=4', 'query parameter "since": unknown parameter; this route takes no parameters'],
  ];

  it.each(cases)('GET %s', async (path, error) => {
    const answer = await getJson<{ error: string }>(api(path));
    expect([answer.status, answer.contentType, answer.body]).toEqual([
      400,
      'application/json; charset=utf-8',
      { error },
    ]);
  });
});

describe('the dashboard JSON API answers 404 and 405 with `{ error }`', () => {
  it.each([
    ['/api/nothing', 'no API route /api/nothing (GET /api lists them)'],
    ['/api/message-flow?teamId=no-such-team', 'no team no-such-team in the views'],
    ['/api/inbox?sessionId=no-such-session', 'no session no-such-session in the views'],
    [`/api/event?sessionId=${atlas.lead}&seq=9999`, `no event at seq 9999 of session ${atlas.lead}`],
    ['/api/event?sessionId=no-such-session&seq=0', 'no event at seq 0 of session no-such-session'],
  ])('GET %s is 404', async (path, error) => {
    const answer = await getJson<{ error: string }>(api(path));
    expect([answer.status, answer.body]).toEqual([404, { error }]);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    '%s is refused with 405: the dashboard is read-only and appends nothing',
    async (method) => {
      const before = await fixture.store.streamRevision(sessionStream(atlas.lead));
      const answer = await request(api('/api/teams'), { method, body: '{}' });
      expect([answer.status, answer.headers.get('allow'), JSON.parse(answer.text)]).toEqual([
        405,
        'GET, HEAD',
        { error: `the dashboard is read-only: ${method} is not allowed (use GET)` },
      ]);
      expect(await fixture.store.streamRevision(sessionStream(atlas.lead))).toBe(before);
    },
  );
});
