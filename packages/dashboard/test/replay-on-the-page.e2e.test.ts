import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type SessionId, sequentialIds, uuidV7Ids } from '@teamlog/events';
import { sessionStream } from '@teamlog/store';
import { type DemoSummary, ScriptedHost, runDemo } from '@teamlog/scripted-host';
import type {
  AuditAnswer,
  ConversationAnswer,
  LegacyMailboxAnswer,
  MomentsAnswer,
  Team,
  TeamsAnswer,
} from '../client/api-shapes';
import { conversationPageEvents } from '../src/conversation-reader';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { type LaunchedBrowser, launchChromium } from '../../../test/support/browser';
import { type FixtureStore, importHistoricalFixtures, openFixtureStore, repositoryRoot } from './fixture-store';
import { getJson } from './http-client';

/*
 * Replaying a Lead log on the page, as a person would: read what was said (the conversation), step
 * through when it happened (the time control), panels that follow the selected team, readable
 * team names, and links that open the same view. Screenshots go to test-output/dashboard/.
 */

const outputDirectory = join(repositoryRoot, 'test-output', 'dashboard');

/** A real harness session (fixtures/dsh-logs) with user text, reasoning, tool calls, results and assistant text. */
const harnessSession =
  '01aa6a36-e9c2-42ba-934b-30bec80a1658@mirror-toninfo/examples/acp-agent/tests/snapshots/hook-codex-posttool-block';
/** Markup in a message: the page must show it as text and never run or render it. */
const hostileText = '<script>window.injected = 1</script><img src="x" onerror="window.injected = 2"> & <b>not bold</b>';
const longTalk = 'long-talk' as SessionId;
const longNote = `The plan, in full: ${'read the log, then fold the views; '.repeat(30)}the end.`;

let fixture: FixtureStore;
let server: DashboardServer;
let browser: LaunchedBrowser;
let page: Page;
let demo: DemoSummary;
let named: { readonly teamId: string; readonly memberId: string };
const pageErrors: string[] = [];

const steppingClock = (start: number): (() => Date) => {
  let now = start;
  return () => new Date((now += 1000));
};

const api = async <T>(path: string): Promise<T> => (await getJson<T>(new URL(path, server.url).toString())).body;

/** Wait until the page finished the refresh that follows what the test just did. */
/** The page sets `data-loaded` false when a refresh starts and true when it ends, and `data-at` to the moment it shows. */
// A test walks the page through several loads, each waited for up to 60 s: on a loaded 2-core
// machine a walk takes minutes, not jest's default 30 s for the whole test.
jest.setTimeout(300_000);

const loaded = (): Promise<void> => page.locator('body[data-loaded="true"]').waitFor({ timeout: 60_000 });
const atMoment = async (at: string | undefined): Promise<void> => {
  await page.locator(`body[data-at="${at ?? 'none'}"][data-loaded="true"]`).waitFor({ timeout: 60_000 });
};

const shoot = async (name: string): Promise<void> => {
  const file = join(outputDirectory, name);
  await page.screenshot({ path: file, fullPage: true });
  expect(statSync(file).size).toBeGreaterThan(0);
};

const pageQuery = (): URLSearchParams => new URL(page.url()).searchParams;

beforeAll(async () => {
  mkdirSync(outputDirectory, { recursive: true });
  browser = await launchChromium();
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-b', join(repositoryRoot, 'packages', 'dashboard', 'client')],
    { stdio: 'pipe' },
  );
  fixture = openFixtureStore();
  await importHistoricalFixtures(fixture.store);
  // A named team from a working directory, whose member got a hostile and a long message; older than the demo.
  const { teamlog } = new ScriptedHost({
    store: fixture.store,
    ids: sequentialIds('named'),
    clock: steppingClock(Date.UTC(2026, 10, 1, 9)),
  });
  const lead = await teamlog.createTeam({ cwd: '/home/ada/escape-check' });
  const member = await lead.spawnMember({ name: 'writer', description: 'writes', provider: 'scripted' });
  await lead.send({ target: 'writer', message: hostileText });
  await lead.send({ target: 'writer', message: longNote });
  await teamlog.dispose();
  named = { teamId: lead.teamId, memberId: member.sessionId };
  // A session longer than one page of the transcript.
  await fixture.store.appendToStream(
    sessionStream(longTalk),
    Array.from({ length: conversationPageEvents + 100 }, (_, index) => ({
      id: uuidV7Ids.eventId(),
      type: 'user/message',
      data: {
        id: `long-talk-${index}`,
        role: 'user',
        content: [{ type: 'text', text: `line ${index}` }],
        source: { kind: 'user' },
      },
      metadata: { time: Date.UTC(2026, 9, 1) + index },
    })),
  );
  demo = await runDemo(fixture.store, uuidV7Ids, steppingClock(Date.UTC(2026, 10, 2, 9)));
  server = await startDashboardServer({ store: fixture.store, port: 0 });
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(server.url);
  await loaded();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.dispose();
});

describe('replaying a Lead log on the page', () => {
  it('opens on the most recently active team without a failure, and the URL names it', async () => {
    const { teams } = await api<TeamsAnswer>('/api/teams');
    const expected = [...teams]
      .filter((team) => team.failure === null)
      .sort((a, b) => (b.lastActive ?? 0) - (a.lastActive ?? 0))[0];
    expect(expected?.teamId).toBe(demo.teamId);
    expect(await page.locator('#team-select').inputValue()).toBe(demo.teamId);
    expect(pageQuery().get('team')).toBe(demo.teamId);
    await shoot('start.png');
  });

  it("shows an engine-made team by its name (given, or from the Lead's working directory), never its bare id", async () => {
    const options = await page
      .locator('#team-select option')
      .evaluateAll((elements) => elements.map((option) => [option.getAttribute('value'), option.textContent ?? '']));
    const label = (teamId: string) => options.find(([value]) => value === teamId)?.[1] ?? '';
    expect(label(demo.teamId)).toMatch(/^teamlog demo · /);
    expect(label(named.teamId)).toMatch(/^escape-check · /);
    expect(await page.locator('#team-name').textContent()).toBe('teamlog demo');
  });

  it("reads a member's conversation: each Team message with its sender, delivery and status, in order", async () => {
    const implementer = demo.members.find((member) => member.name === 'implementer');
    await page.selectOption('#session-select', implementer?.sessionId ?? '');
    await page.locator(`#conversation[data-session-id="${implementer?.sessionId}"]`).waitFor({ timeout: 60_000 });
    const shown = await page.locator('#conversation li[data-kind="team-message"]').evaluateAll((items) =>
      items.map((item) => ({
        id: item.getAttribute('data-message-id'),
        status: item.getAttribute('data-status'),
        heading: item.querySelector('.turn-heading')?.textContent ?? '',
      })),
    );
    const toImplementer = demo.messages.filter((message) => message.to === 'implementer');
    expect(shown.map((item) => [item.id, item.status])).toEqual(
      toImplementer.map((message) => [message.id, message.outcome]),
    );
    for (const [index, message] of toImplementer.entries()) {
      expect(shown[index]?.heading).toContain(`from ${message.from}`);
      expect(shown[index]?.heading).toContain(
        message.delivery === 'steer' ? 'steer (next step)' : 'starts a turn (next turn)',
      );
    }
    expect(pageQuery().get('session')).toBe(implementer?.sessionId);
    await shoot('conversation-demo-member.png');
  });

  it("tells the demo's story in its members' conversations: a cold resume before a message, and a kill", async () => {
    const notesOf = async (name: string): Promise<string[]> => {
      const id = demo.members.find((member) => member.name === name)?.sessionId ?? '';
      await page.selectOption('#session-select', id);
      await page.locator(`#conversation[data-session-id="${id}"]`).waitFor({ timeout: 60_000 });
      return page
        .locator('#conversation li[data-kind]')
        .evaluateAll((items) =>
          items
            .filter((item) => ['lifecycle', 'team-message'].includes(item.getAttribute('data-kind') ?? ''))
            .map((item) =>
              item.getAttribute('data-kind') === 'lifecycle' ? (item.textContent ?? '') : 'team message',
            ),
        );
    };
    const researcher = await notesOf('researcher');
    const resumed = researcher.findIndex((note) => note.startsWith('cold resumed'));
    expect(researcher[resumed - 1]).toMatch(/^evicted/);
    expect(researcher[resumed + 1]).toBe('team message');
    await shoot('conversation-cold-resume.png');
    expect((await notesOf('reviewer')).at(-1)).toMatch(/^closed: killed/);
  });

  it("reads a harness log: user text, reasoning, tool calls and results and the assistant's answer, long ones expandable", async () => {
    await page.goto(`${server.url}?${new URLSearchParams({ session: harnessSession }).toString()}`);
    await page.locator('#conversation li[data-kind="assistant"]').first().waitFor({ timeout: 60_000 });
    await loaded();
    const { items } = await api<ConversationAnswer>(
      `/api/conversation?${new URLSearchParams({ sessionId: harnessSession }).toString()}`,
    );
    const kinds = await page
      .locator('#conversation li[data-kind]')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-kind')));
    expect(kinds).toEqual(items.map((item) => item.kind));
    expect(new Set(kinds)).toEqual(new Set(['user', 'turn', 'reasoning', 'tool-call', 'tool-result', 'assistant']));
    const long = items.findIndex((item) => item.text.length > 280);
    expect(long).toBeGreaterThanOrEqual(0);
    const details = page.locator('#conversation li[data-kind]').nth(long).locator('details.expandable');
    expect(await details.locator('.text-full').isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.locator('.text-full').textContent()).toBe(items[long]?.text);
    expect(await details.locator('.text-full').isVisible()).toBe(true);
    await shoot('conversation-harness-log.png');
  });

  it('reads a transcript longer than one page: the rest comes on demand, in order', async () => {
    await page.goto(`${server.url}?${new URLSearchParams({ session: longTalk }).toString()}`);
    await page.locator(`#conversation[data-session-id="${longTalk}"]`).waitFor({ timeout: 60_000 });
    expect(await page.locator('#conversation li[data-kind="user"]').count()).toBe(conversationPageEvents);
    await page.getByRole('button', { name: 'show the rest of the conversation' }).click();
    await page
      .locator(`#conversation li[data-kind="user"]:nth-child(${conversationPageEvents + 100})`)
      .waitFor({ timeout: 60_000 });
    const seqs = await page
      .locator('#conversation li[data-kind="user"]')
      .evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-seq'))));
    expect(seqs).toEqual(Array.from({ length: conversationPageEvents + 100 }, (_, index) => index));
    expect(await page.locator('#conversation button.more').count()).toBe(0);
  });

  it('shows markup in a message as text: nothing in it runs or renders, in the conversation or the message list', async () => {
    await page.goto(`${server.url}?${new URLSearchParams({ team: named.teamId, session: named.memberId }).toString()}`);
    await page.locator(`#conversation[data-session-id="${named.memberId}"]`).waitFor({ timeout: 60_000 });
    await loaded();
    const texts = await page
      .locator('#conversation li[data-kind="team-message"] .long-text')
      .evaluateAll((elements) => elements.map((element) => element.textContent ?? ''));
    expect(texts[0]).toBe(`Team message from lead:\n${hostileText}`);
    expect(texts[1]).toContain('The plan, in full:');
    expect(await page.locator('#flow-messages li').first().locator('.long-text').textContent()).toBe(
      `Team message from lead:\n${hostileText}`,
    );
    expect(
      await page.locator('#conversation script, #conversation img, #conversation b, #flow-messages img').count(),
    ).toBe(0);
    expect(await page.evaluate('window.injected')).toBeUndefined();
    expect(await page.locator('#team-name').textContent()).toBe('escape-check');
    await shoot('conversation-escaped.png');
  });

  it("steps through the team's history with an accessible slider: every panel shows the views as of the moment", async () => {
    await page.goto(`${server.url}?${new URLSearchParams({ team: demo.teamId }).toString()}`);
    await atMoment('live');
    const { moments } = await api<MomentsAnswer>(`/api/moments?teamId=${demo.teamId}`);
    const slider = page.getByRole('slider', { name: "Moment in the selected team's history" });
    expect(await slider.getAttribute('max')).toBe(String(moments.length - 1));
    await slider.focus();
    await page.keyboard.press('Home');
    const first = moments[0]?.position ?? '';
    await atMoment(first);
    expect(pageQuery().get('at')).toBe(first);
    // As of the first event, the Lead has just been created: no member, no task.
    expect(await page.locator('#roster-body tr').count()).toBe(1);
    await page.getByRole('button', { name: 'step forward ▶' }).click();
    await atMoment(moments[1]?.position);
    const middle = moments[Math.floor(moments.length / 2)]?.position ?? '';
    await page.goto(`${server.url}?${new URLSearchParams({ team: demo.teamId, at: middle }).toString()}`);
    await atMoment(middle);
    const [then] = (await api<TeamsAnswer>(`/api/teams?teamId=${demo.teamId}&asOf=${middle}`)).teams as Team[];
    const rows = await page
      .locator('#roster-body tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-session-id'), tr.getAttribute('data-status')]));
    expect(rows).toEqual([
      [then?.lead.id, then?.lead.status],
      ...(then?.members ?? []).map((member) => [member.id, member.status]),
    ]);
    const cards = await page
      .locator('.task-card')
      .evaluateAll((elements) =>
        elements.map((card) => [card.getAttribute('data-task-id'), card.getAttribute('data-status')]),
      );
    expect(cards.sort()).toEqual((then?.tasks ?? []).map((task) => [task.id, task.status]).sort());
    expect(await slider.getAttribute('aria-valuetext')).toMatch(
      new RegExp(`^step ${Math.floor(moments.length / 2) + 1} of ${moments.length}: `),
    );
    await shoot('time-travel.png');
    await page.getByRole('button', { name: '◀ step back' }).click();
    await atMoment(moments[Math.floor(moments.length / 2) - 1]?.position);
    await page.getByRole('button', { name: 'live' }).click();
    await atMoment('live');
    expect(pageQuery().has('at')).toBe(false);
  });

  it('plays the history forward, one step after another, until paused', async () => {
    const { moments } = await api<MomentsAnswer>(`/api/moments?teamId=${demo.teamId}`);
    await page.getByRole('button', { name: '▶ play' }).click();
    await atMoment(moments[2]?.position);
    await page.getByRole('button', { name: '❚❚ pause' }).click();
    expect(await page.getByRole('button', { name: '▶ play' }).getAttribute('aria-pressed')).toBe('false');
    await page.getByRole('button', { name: 'live' }).click();
    await atMoment('live');
  });

  it('scopes the audit, legacy mailbox and failures to the selected team, with an "all teams" choice kept in the URL', async () => {
    const { messages: all } = await api<LegacyMailboxAnswer>('/api/legacy-mailbox');
    const teamId = all.find((message) => message.status === 'undelivered')?.teamId ?? '';
    await page.selectOption('#team-select', teamId);
    await page.locator(`#legacy-body tr.legacy-row[data-team-id="${teamId}"]`).first().waitFor({ timeout: 60_000 });
    await loaded();
    const rows = await page
      .locator('#legacy-body tr.legacy-row')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-team-id'), tr.querySelector('.message-text')?.textContent ?? '']),
      );
    const own = all.filter((message) => message.teamId === teamId);
    expect(rows).toEqual(own.map((message) => [teamId, message.text]));
    const { findings } = await api<AuditAnswer>(`/api/audit?teamId=${encodeURIComponent(teamId)}`);
    expect(await page.locator('#audit-body tr.audit-row').count()).toBe(findings.length);
    await shoot('scoped-panels.png');
    await page.selectOption('#scope-select', 'all');
    await page.locator(`#legacy-body tr.legacy-row:nth-child(${all.length})`).waitFor({ timeout: 60_000 });
    await loaded();
    expect(pageQuery().get('scope')).toBe('all');
    const explanations = await page.locator('#audit-body .audit-explanation').allTextContents();
    expect(explanations.length).toBeGreaterThan(0);
    expect(explanations.every((text) => text.length > 10)).toBe(true);
    await shoot('all-teams.png');
    expect(pageErrors).toEqual([]);
  });
});
