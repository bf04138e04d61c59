import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { browserSetupFailureVariable, chromiumPath } from './browser-location';

export { chromiumPath };

/** The flags this machine needs for headless Chromium (no sandbox, no GPU, no background traffic). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export class ChromiumMissing extends Error {
  override readonly name = 'ChromiumMissing';
  /** `setupFailure`: why the test run's global setup could not install it, when it tried. */
  constructor(
    readonly executablePath: string,
    readonly setupFailure?: string,
  ) {
    super(
      `Chromium is missing at ${executablePath}: ` +
        (setupFailure === undefined
          ? ''
          : `the test run's global setup could not install Debian's chromium (${setupFailure}); `) +
        `install it (scripts/setup-browser.sh does), then run this test again`,
    );
  }
}

export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh user-data directory; fails (never skips) when Chromium is missing. */
export const launchChromium = async (
  executablePath = chromiumPath,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LaunchedBrowser> => {
  if (!existsSync(executablePath)) throw new ChromiumMissing(executablePath, env[browserSetupFailureVariable]);
  const userDataDir = mkdtempSync(join(tmpdir(), 'teamlog-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
};
