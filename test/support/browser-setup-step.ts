import { existsSync } from 'node:fs';
import { browserSetupFailureVariable, chromiumPath } from './browser-location';
import type { GlobalSetupStep } from './global-setup-step';
import { installDebianPackage } from './install-debian-package';

export interface BrowserSetupOptions {
  readonly executablePath: string;
  readonly exists: (path: string) => boolean;
  readonly install: (log: (line: string) => void) => Promise<void>;
  readonly env: NodeJS.ProcessEnv;
}

const defaults: BrowserSetupOptions = {
  executablePath: chromiumPath,
  exists: existsSync,
  install: (log) => installDebianPackage('chromium', log),
  env: process.env,
};

/**
 * Chromium for the dashboard's end-to-end test: Debian's `chromium`, installed when missing. When
 * it cannot be had, the reason goes to TEAMLOG_BROWSER_SETUP_FAILED (the workers inherit it) and
 * the browser test fails with it; every other suite still runs.
 */
export const browserSetupStepWith = (options: Partial<BrowserSetupOptions> = {}): GlobalSetupStep => {
  const { executablePath, exists, install, env } = { ...defaults, ...options };
  return {
    name: 'browser',
    setUp: async (log) => {
      const say = (line: string): void => log(`browser: ${line}`);
      if (exists(executablePath)) return async () => undefined;
      say(`${executablePath} is missing; installing Debian's chromium`);
      try {
        await install(say);
        if (!exists(executablePath))
          throw new Error(`apt-get installed chromium, but ${executablePath} is still missing`);
        say(`installed ${executablePath}`);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        env[browserSetupFailureVariable] = reason;
        say(`could not be set up, the dashboard's browser test will fail: ${reason}`);
      }
      return async () => undefined;
    },
  };
};

export const browserSetupStep = browserSetupStepWith();
