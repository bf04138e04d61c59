import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { uuidV7Ids } from '@teamlog/events';
import { runDemo } from '@teamlog/scripted-host';
import type { ChainsAnswer } from '../client/api-shapes';
import { type DashboardServer, startDashboardServer } from '../src/dashboard-server';
import { type LaunchedBrowser, launchChromium } from '../../../test/support/browser';
import { type FixtureStore, openFixtureStore, repositoryRoot } from './fixture-store';
import { getJson } from './http-client';

/*
 * The audit panel in headless Chromium over a SQLite store the scripted demo wrote: the hash
 * chains are intact, then one stored acceptance is edited in the file while the dashboard serves:
 * the next load of the page shows the chain break, and a dashboard started after the edit shows
 * it beside the attribution finding the edit also makes.
 */

let fixture: FixtureStore;
let server: DashboardServer;
let browser: LaunchedBrowser;
let page: Page;

const steppingClock = (start: number): (() => Date) => {
  let now = start;
  return () => new Date((now += 1));
};

const api = async <T>(path: string): Promise<T> => (await getJson<T>(new URL(path, server.url).toString())).body;

const rowCells = (selector: string): Promise<string[][]> =>
  page
    .locator(selector)
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
    );

interface EditedRow {
  readonly stream: string;
  readonly revision: number;
}

/** Rename the sender in the first stored acceptance's relayed sender line, as someone with the file could. */
const editFirstAcceptance = (file: string): EditedRow => {
  const db = new Database(file);
  try {
    const row = db
      .prepare(
        "SELECT position, stream_name, revision, data FROM events WHERE type = 'teamlog/inbox/accepted' ORDER BY position LIMIT 1",
      )
      .get() as { position: number; stream_name: string; revision: number; data: string };
    const edited = row.data.replace(/Team message from [^:"]+:/, 'Team message from mallory:');
    if (edited === row.data) throw new Error('the acceptance has no sender line to edit');
    db.prepare('UPDATE events SET data = ? WHERE position = ?').run(edited, row.position);
    return { stream: row.stream_name, revision: row.revision };
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  browser = await launchChromium();
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-b', join(repositoryRoot, 'packages', 'dashboard', 'client')],
    { stdio: 'pipe' },
  );
  fixture = openFixtureStore();
  await runDemo(fixture.store, uuidV7Ids, steppingClock(Date.UTC(2026, 10, 2, 9)));
  server = await startDashboardServer({ store: fixture.store, port: 0 });
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fixture?.dispose();
});

describe('the audit panel shows hash-chain breaks', () => {
  it('says the chains are intact for the store the engine wrote', async () => {
    await page.goto(server.url);
    const chains = await api<ChainsAnswer>('/api/chains');
    expect([chains.checked, chains.findings]).toEqual([true, []]);
    await page.waitForSelector('#chain-body td.empty');
    expect(await rowCells('#chain-body tr')).toEqual([
      [`chains intact: ${chains.streams} streams, ${chains.events} events`],
    ]);
  });

  it('after the SQLite file is edited, lists the changed event with its explanation beside the attribution finding', async () => {
    const edited = editFirstAcceptance(fixture.file);
    await page.reload();
    const selector = `#chain-body tr.chain-row[data-code="chain-event-changed"][data-stream="${edited.stream}"]`;
    await page.waitForSelector(selector);
    const [cells] = await rowCells(selector);
    expect(cells?.[1]).toBe(edited.stream);
    expect(cells?.[2]).toBe(`revision ${edited.revision}`);
    expect(cells?.[0]).toContain('it was changed after it was written');
    const sessionId = edited.stream.replace(/^session-/, '');
    // The break's event link shows the edited event.
    await page.locator(`${selector} a.event-link`).click();
    const heading = page.locator('#event-viewer .event-heading');
    await heading.waitFor();
    expect([await heading.getAttribute('data-session-id'), await heading.getAttribute('data-seq')]).toEqual([
      sessionId,
      String(edited.revision),
    ]);
    // The live views were folded before the edit; a dashboard started now folds the edited bytes,
    // and shows the attribution finding the edit also makes (a renamed sender) beside the break.
    await server.close();
    server = await startDashboardServer({ store: fixture.store, port: 0 });
    await page.goto(server.url);
    await page.waitForSelector(selector);
    await page.waitForSelector(
      `#audit-body tr.audit-row[data-code="header-sender-mismatch"][data-session-id="${sessionId}"]`,
    );
  }, 120_000);
});
