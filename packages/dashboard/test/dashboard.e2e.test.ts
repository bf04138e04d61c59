import { execFileSync } from 'child_process';
import { mkdirSync, statSync } from 'fs';
import { join } from 'path';
import { Page } from 'playwright-core';
import type { AuditAnswer, FailuresAnswer, LegacyMailboxAnswer } from '../client/api-shapes';
import { DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { LaunchedBrowser, launchChromium } from './browser';
import { FixtureStore, importHistoricalFixtures, openFixtureStore, repositoryRoot } from './fixture-store';
import { getJson } from './http-client';
import { accepted, appendAtlasTeam, appendSessionEvents, atlas, member, relayed } from './native-team';

/*
 * The dashboard in headless Chromium over a real SQLite store holding a native team (written in the
 * team service's shape) and the replayed historical fixtures: what a person would look at.
 */

const outputDirectory = join(repositoryRoot, 'test-output', 'dashboard');

let fixture: FixtureStore;
let server: DashboardServer;
let browser: LaunchedBrowser;
let page: Page;
const pageErrors: string[] = [];

const api = async <T>(path: string): Promise<T> => (await getJson<T>(new URL(path, server.url).toString())).body;

/** The page's modules come from `tsc -b`; build them so the test never runs a stale page. */
const buildBrowserCode = (): void => {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', join(repositoryRoot, 'packages', 'dashboard', 'client')], { stdio: 'pipe' });
};

const rowCells = (selector: string): Promise<string[][]> =>
  page.locator(selector).evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())));

beforeAll(async () => {
  mkdirSync(outputDirectory, { recursive: true });
  // First, so a machine without Chromium fails at once with the way to fix it.
  browser = await launchChromium();
  buildBrowserCode();
  fixture = openFixtureStore();
  await appendAtlasTeam(fixture.store);
  await importHistoricalFixtures(fixture.store);
  server = await startDashboardServer({ store: fixture.store, port: 0 });
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(server.url);
  await page.waitForSelector('#roster-body tr[data-session-id]');
  await page.selectOption('#team-select', atlas.teamId);
  await page.waitForSelector(`#roster-body tr[data-session-id="${atlas.reviewer}"]`);
  await page.waitForSelector('#message-flow svg');
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
      ['lead', 'idle', atlas.lead],
      ['reviewer', 'idle', atlas.reviewer],
      ['writer', 'running', atlas.writer],
    ]);
  });

  it('shows the task board in status columns', async () => {
    expect(await page.locator('.task-column[data-status="in_progress"] .task-card').getAttribute('data-task-id')).toBe('task-1');
    await expect(page.locator('.task-column[data-status="in_progress"] .task-owner').textContent()).resolves.toBe('owner: reviewer');
    await expect(page.locator('.task-column[data-status="pending"] .task-blocked').textContent()).resolves.toBe('blocked by task-1');
  });

  it('draws the message flow as arrows between the lifelines of sender and target, in order', async () => {
    const arrows = page.locator('#message-flow svg g.flow-arrow');
    const ends = await arrows.evaluateAll((groups) => groups.map((group) => [group.getAttribute('data-from'), group.getAttribute('data-to')]));
    expect(ends).toEqual([
      [atlas.lead, atlas.reviewer],
      [atlas.reviewer, atlas.lead],
      [atlas.lead, atlas.writer],
      [atlas.reviewer, atlas.writer],
    ]);
    const lifeline = async (session: string) => Number(await page.locator(`#message-flow g.flow-lane[data-session-id="${session}"] line.flow-lifeline`).getAttribute('x1'));
    const first = arrows.first().locator('line.flow-arrow-line');
    expect([Number(await first.getAttribute('x1')), Number(await first.getAttribute('x2'))]).toEqual([await lifeline(atlas.lead), await lifeline(atlas.reviewer)]);
    const ys = await arrows.locator('line.flow-arrow-line').evaluateAll((lines) => lines.map((line) => Number(line.getAttribute('y1'))));
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    expect(await arrows.nth(3).getAttribute('data-status')).toBe('canceled');
    expect(await arrows.first().boundingBox()).not.toBeNull();
  });

  it('shows a session’s inbox timeline: accepted, claimed, canceled', async () => {
    await page.selectOption('#session-select', atlas.writer);
    await page.waitForSelector('#inbox-timeline li[data-kind="canceled"]');
    const items = await page.locator('#inbox-timeline li').evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-seq'), li.getAttribute('data-kind')]));
    expect(items).toEqual([
      ['2', 'accepted'],
      ['4', 'claimed'],
      ['6', 'accepted'],
      ['7', 'canceled'],
    ]);
  });

  it('highlights undelivered messages of the legacy mailbox', async () => {
    const { messages } = await api<LegacyMailboxAnswer>('/api/legacy-mailbox');
    const undelivered = messages.filter((message) => message.status === 'undelivered').map((message) => message.id);
    expect(undelivered.length).toBeGreaterThan(0);
    const highlighted = await page.locator('#legacy-body tr.legacy-row.undelivered').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-message-id')));
    expect(highlighted).toEqual(undelivered);
    const background = (selector: string) => page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`);
    expect(await background('#legacy-body tr.legacy-row.undelivered')).not.toBe(await background('#legacy-body tr.legacy-row.delivered'));
  });

  it('lists audit findings, and an event link shows the stored event without leaving the page', async () => {
    const { findings } = await api<AuditAnswer>('/api/audit');
    expect(await page.locator('#audit-body tr.audit-row').count()).toBe(findings.length);
    const finding = findings.find((candidate) => candidate.seq >= 0);
    expect(finding).toBeDefined();
    const row = page.locator(`#audit-body tr.audit-row[data-code="${finding?.code}"][data-seq="${finding?.seq}"]`).first();
    await row.locator('a.event-link').click();
    const heading = page.locator('#event-viewer .event-heading');
    await heading.waitFor();
    expect([await heading.getAttribute('data-session-id'), await heading.getAttribute('data-seq')]).toEqual([finding?.sessionId, String(finding?.seq)]);
    expect(page.url()).toBe(server.url);
  });

  it('shows each team projection failure with the record that caused it', async () => {
    const { failures } = await api<FailuresAnswer>('/api/failures');
    expect(failures.length).toBeGreaterThan(0);
    const shown = await page.locator('#failures article.failure').evaluateAll((articles) =>
      articles.map((article) => [article.getAttribute('data-team-id'), article.querySelector('.failure-reason')?.textContent, article.querySelector('.failure-record')?.textContent]),
    );
    expect(shown).toEqual(failures.map((row) => [row.teamId, row.failure.reason, JSON.stringify(row.record?.data, null, 2)]));
  });

  it('renders without script errors; the screenshot is saved', async () => {
    const file = join(outputDirectory, 'dashboard.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it('updates without a reload when events are appended after the page loaded', async () => {
    await page.evaluate('window.loadedOnce = "same page"');
    await appendSessionEvents(fixture.store, atlas.lead, [member('tester', atlas.tester, 'provisioning', 'Run the slow suite')], Date.UTC(2026, 9, 5, 11));
    await appendSessionEvents(fixture.store, atlas.lead, [accepted('next-turn', relayed('atlas-message-5', atlas.writer, 'writer', 'Notes drafted.'))], Date.UTC(2026, 9, 5, 12));
    await page.waitForSelector(`#roster-body tr[data-session-id="${atlas.tester}"][data-status="provisioning"]`);
    await page.waitForSelector(`#message-flow g.flow-arrow[data-order="5"][data-from="${atlas.writer}"][data-to="${atlas.lead}"]`);
    expect(await page.evaluate<string>('window.loadedOnce')).toBe('same page');
    expect(await page.locator('#live-status').textContent()).toBe('live');
    await page.screenshot({ path: join(outputDirectory, 'dashboard-live-update.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
