import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { type LaunchedBrowser, launchChromium } from '../../../test/support/browser';
import { linesOf } from './harness-script';
import { repoRoot, temporaryDirectory } from './run-teamlog';
import { startTeamlog } from './teamlog-process';

/*
 * `teamlog serve --follow ROOT` in headless Chromium: the harness appends to a log and the page
 * shows the new message without a reload.
 */

const direct = (name: string): string => join(repoRoot, 'fixtures', 'synthetic', 'v4-direct', name, 'session.v4.jsonl');
/** The reviewer's relayed message to the Lead, accepted at the Lead's seq 35. */
const relayedMessage = '5e0c0075-0000-4000-8000-000000000075';

describe('teamlog serve --follow', () => {
  const directory = temporaryDirectory();
  const root = join(directory.path, 'sessions');
  let browser: LaunchedBrowser | undefined;
  afterAll(async () => {
    await browser?.close();
    directory.cleanup();
  });

  it('moves the open page as the harness writes: a message appears without a reload', async () => {
    browser = await launchChromium();
    const lead = join(root, 'direct-lead', 'session.v4.jsonl');
    const leadLines = linesOf(direct('direct-lead'));
    await fs.mkdir(join(root, 'direct-lead'), { recursive: true });
    await fs.mkdir(join(root, 'direct-reviewer'), { recursive: true });
    await fs.copyFile(direct('direct-reviewer'), join(root, 'direct-reviewer', 'session.v4.jsonl'));
    await fs.writeFile(lead, leadLines.slice(0, 36).join('')); // the header and seqs 0 to 34

    const serve = startTeamlog(['serve', '--follow', root, '--store', join(directory.path, 'live.db'), '--port', '0']);
    try {
      const url = await serve.line();
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      await page.waitForSelector('#session-select option[value="direct-lead"]', { state: 'attached' });
      await page.selectOption('#session-select', 'direct-lead');
      await page.waitForSelector('#inbox-timeline li[data-kind="accepted"]');
      expect(await page.locator(`#inbox-timeline li[data-message-id="${relayedMessage}"]`).count()).toBe(0);
      await page.evaluate('window.loadedOnce = "same page"');

      // The harness writes the rest of the Lead's log, a line at a time.
      for (const line of leadLines.slice(36)) await fs.appendFile(lead, line);
      await page.waitForSelector(`#inbox-timeline li[data-kind="accepted"][data-message-id="${relayedMessage}"]`, {
        timeout: 15_000,
      });
      expect(await page.evaluate<string>('window.loadedOnce')).toBe('same page');
      expect(await page.locator('#live-status').textContent()).toBe('live');
      expect(errors).toEqual([]);
    } finally {
      serve.child.kill('SIGINT');
    }
    const stopped = await serve.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/teamlog: batch \d+: 1 file, \d+ events?, views at \d+\/\d+/);
  }, 120_000);
});
