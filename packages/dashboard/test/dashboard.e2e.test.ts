import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type SessionId, uuidV7Ids } from '@teamlog/events';
import { sessionStream } from '@teamlog/store';
import { type DemoSummary, runDemo } from '@teamlog/scripted-host';
import type { AuditAnswer, FailuresAnswer, LegacyMailboxAnswer } from '../client/api-shapes';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { type LaunchedBrowser, launchChromium } from '../../../test/support/browser';
import { type FixtureStore, importHistoricalFixtures, openFixtureStore, repositoryRoot } from './fixture-store';
import { getJson } from './http-client';

/*
 * The dashboard in headless Chromium over a real SQLite store filled by the scripted team demo
 * (@teamlog/team `runDemo`, the real engine) and the replayed historical fixtures: what a person
 * would look at.
 */

const outputDirectory = join(repositoryRoot, 'test-output', 'dashboard');

let fixture: FixtureStore;
let server: DashboardServer;
let browser: LaunchedBrowser;
let page: Page;
let demo: DemoSummary;
const pageErrors: string[] = [];

/** Each call one millisecond later: the demo's events get distinct, increasing times. */
const steppingClock = (start: number): (() => Date) => {
  let now = start;
  return () => new Date((now += 1));
};

/** A roster row's status: the member's phase (active for every demo member) with its session's state. */
const rosterStatusOf = (member: DemoSummary['members'][number]): string =>
  member.status === 'not-started'
    ? 'provisioning'
    : member.status === 'closed' && member.closeReason === 'failed'
      ? 'failed'
      : member.status;

const api = async <T>(path: string): Promise<T> => (await getJson<T>(new URL(path, server.url).toString())).body;

/** The page's modules come from `tsc -b`; build them so the test never runs a stale page. */
const buildBrowserCode = (): void => {
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-b', join(repositoryRoot, 'packages', 'dashboard', 'client')],
    { stdio: 'pipe' },
  );
};

const rowCells = (selector: string): Promise<string[][]> =>
  page
    .locator(selector)
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
    );

beforeAll(async () => {
  mkdirSync(outputDirectory, { recursive: true });
  // First, so a machine without Chromium fails at once with the way to fix it.
  browser = await launchChromium();
  buildBrowserCode();
  fixture = openFixtureStore();
  demo = await runDemo(fixture.store, uuidV7Ids, steppingClock(Date.UTC(2026, 10, 2, 9)));
  await importHistoricalFixtures(fixture.store);
  server = await startDashboardServer({ store: fixture.store, port: 0 });
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(server.url);
  await page.waitForSelector('#roster-body tr[data-session-id]');
  await page.selectOption('#team-select', demo.teamId);
  await page.waitForSelector(`#roster-body tr[data-session-id="${demo.members[0]?.sessionId}"]`);
  await page.waitForSelector(`#message-flow svg[aria-label^="Message flow of team ${demo.teamId}:"]`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.dispose();
});

describe('the dashboard in a browser', () => {
  it('shows the selected team’s roster with each member’s status', async () => {
    const rows = await rowCells('#roster-body tr');
    expect(rows.map((cells) => [cells[0], cells[1], cells[5]])).toEqual([
      ['lead', 'idle', demo.teamId],
      ...demo.members.map((member) => [member.name, rosterStatusOf(member), member.sessionId]),
    ]);
    expect(rows.map((cells) => cells[1])).toContain('closed');
  });

  it('shows the task board in status columns', async () => {
    const cards = await page
      .locator('.task-card')
      .evaluateAll((elements) =>
        elements.map((card) => [card.getAttribute('data-task-id'), card.getAttribute('data-status')]),
      );
    expect([...cards].sort()).toEqual(demo.tasks.map((task) => [task.id, task.status]).sort());
    const blocked = demo.tasks.find((task) => task.blockedBy.length > 0);
    await expect(page.locator(`.task-card[data-task-id="${blocked?.id}"] .task-blocked`).textContent()).resolves.toBe(
      `blocked by ${blocked?.blockedBy.join(', ')}`,
    );
  });

  it('draws the message flow: one arrow per accepted message, from the sender’s lifeline to the target’s, top to bottom', async () => {
    const arrows = page.locator('#message-flow svg g.flow-arrow');
    const drawn = await arrows.evaluateAll((groups) =>
      groups.map((group) => [
        group.getAttribute('data-message-id'),
        group.getAttribute('data-from'),
        group.getAttribute('data-to'),
      ]),
    );
    const idOf = new Map<string, string>([
      ['lead', demo.teamId],
      ...demo.members.map((member) => [member.name, member.sessionId] as [string, string]),
    ]);
    expect([...drawn].sort()).toEqual(
      demo.messages.map((message) => [message.id, idOf.get(message.from), idOf.get(message.to)]).sort(),
    );
    const lifeline = async (session: string | null) =>
      Number(
        await page
          .locator(`#message-flow g.flow-lane[data-session-id="${session}"] line.flow-lifeline`)
          .getAttribute('x1'),
      );
    const lines = await arrows.locator('line.flow-arrow-line').evaluateAll((elements) =>
      elements.map((line) => ({
        x1: Number(line.getAttribute('x1')),
        x2: Number(line.getAttribute('x2')),
        y: Number(line.getAttribute('y1')),
      })),
    );
    for (const [index, [, from, to]] of drawn.entries()) {
      expect(lines[index]).toMatchObject({ x1: await lifeline(from), x2: await lifeline(to) });
    }
    expect(lines.map((line) => line.y)).toEqual([...lines.map((line) => line.y)].sort((a, b) => a - b));
    expect(await arrows.first().boundingBox()).not.toBeNull();
  });

  it('shows a session’s inbox timeline: every message accepted, then claimed or canceled', async () => {
    const implementer = demo.members.find((member) => member.name === 'implementer');
    await page.selectOption('#session-select', implementer?.sessionId ?? '');
    // The session shown before the choice may have claimed messages too: wait for the chosen one's.
    const timeline = `#inbox-timeline[data-session-id="${implementer?.sessionId}"]`;
    await page.waitForSelector(`${timeline} li[data-kind="claimed"]`);
    const items = await page
      .locator(`${timeline} li`)
      .evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-kind'), li.getAttribute('data-message-id')]));
    const toImplementer = demo.messages.filter((message) => message.to === 'implementer');
    expect(
      items
        .filter(([kind]) => kind === 'accepted')
        .map(([, id]) => id)
        .sort(),
    ).toEqual(toImplementer.map((message) => message.id).sort());
    expect(
      items
        .filter(([kind]) => kind !== 'accepted')
        .map(([kind, id]) => [kind, id])
        .sort(),
    ).toEqual(
      toImplementer
        .filter((message) => message.outcome !== 'pending')
        .map((message) => [message.outcome, message.id])
        .sort(),
    );
  });

  it('highlights undelivered messages of the legacy mailbox (all teams)', async () => {
    // The panels follow the selected team (the demo's, which has no mailbox); these checks read every team.
    await page.selectOption('#scope-select', 'all');
    await page.waitForSelector('#legacy-body tr.legacy-row.undelivered');
    const { messages } = await api<LegacyMailboxAnswer>('/api/legacy-mailbox');
    const undelivered = messages.filter((message) => message.status === 'undelivered').map((message) => message.id);
    expect(undelivered.length).toBeGreaterThan(0);
    const highlighted = await page
      .locator('#legacy-body tr.legacy-row.undelivered')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-message-id')));
    expect(highlighted).toEqual(undelivered);
    const background = (selector: string) =>
      page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`);
    expect(await background('#legacy-body tr.legacy-row.undelivered')).not.toBe(
      await background('#legacy-body tr.legacy-row.delivered'),
    );
  });

  it('lists audit findings, and an event link shows the stored event without leaving the page', async () => {
    const { findings } = await api<AuditAnswer>('/api/audit');
    expect(await page.locator('#audit-body tr.audit-row').count()).toBe(findings.length);
    const finding = findings.find((candidate) => candidate.seq >= 0);
    expect(finding).toBeDefined();
    const row = page
      .locator(`#audit-body tr.audit-row[data-code="${finding?.code}"][data-seq="${finding?.seq}"]`)
      .first();
    const before = page.url();
    await page.evaluate('window.beforeEventLink = "same page"');
    await row.locator('a.event-link').click();
    const heading = page.locator('#event-viewer .event-heading');
    await heading.waitFor();
    expect([await heading.getAttribute('data-session-id'), await heading.getAttribute('data-seq')]).toEqual([
      finding?.sessionId,
      String(finding?.seq),
    ]);
    expect(page.url()).toBe(before);
    expect(await page.evaluate<string>('window.beforeEventLink')).toBe('same page');
  });

  it('shows each team projection failure with the record that caused it', async () => {
    const { failures } = await api<FailuresAnswer>('/api/failures');
    expect(failures.length).toBeGreaterThan(0);
    const shown = await page
      .locator('#failures article.failure')
      .evaluateAll((articles) =>
        articles.map((article) => [
          article.getAttribute('data-team-id'),
          article.querySelector('.failure-reason')?.textContent,
          article.querySelector('.failure-record')?.textContent,
        ]),
      );
    expect(shown).toEqual(
      failures.map((row) => [row.teamId, row.failure.reason, JSON.stringify(row.record?.data, null, 2)]),
    );
  });

  it('renders without script errors; the screenshot is saved', async () => {
    const file = join(outputDirectory, 'dashboard.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it('updates without a reload when events are appended after the page loaded', async () => {
    await page.evaluate('window.loadedOnce = "same page"');
    const newcomer = 'demo-newcomer' as SessionId;
    // Another writer (a host spawning a member) appends to the Lead's stream while the page is open.
    await fixture.store.appendToStream(sessionStream(demo.teamId as string as SessionId), [
      {
        id: uuidV7Ids.eventId(),
        type: 'team/member',
        data: {
          version: 2,
          teamId: demo.teamId,
          member: {
            id: newcomer,
            name: 'newcomer',
            description: 'joins late',
            provider: 'scripted',
            context: 'fresh',
            phase: 'provisioning',
          },
        },
        metadata: { time: Date.UTC(2026, 10, 2, 10) },
      },
    ]);
    await page.waitForSelector(`#roster-body tr[data-session-id="${newcomer}"][data-status="provisioning"]`);
    expect(await page.evaluate<string>('window.loadedOnce')).toBe('same page');
    expect(await page.locator('#live-status').textContent()).toBe('live');
    await page.screenshot({ path: join(outputDirectory, 'dashboard-live-update.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
