import { browserSetupStepWith } from './browser-setup-step';

const lines: string[] = [];
const log = (line: string): void => {
  lines.push(line);
};

beforeEach(() => lines.splice(0));

describe('the browser step of the jest global setup', () => {
  it('given Chromium is installed, when the step runs, then it installs nothing and records no failure', async () => {
    const install = jest.fn(async () => undefined);
    const env: NodeJS.ProcessEnv = {};
    await browserSetupStepWith({ executablePath: '/usr/bin/chromium', exists: () => true, install, env }).setUp(log);
    expect(install).not.toHaveBeenCalled();
    expect(env).toEqual({});
  });

  it('given Chromium is missing, when the install succeeds, then it says so and records no failure', async () => {
    let installed = false;
    const env: NodeJS.ProcessEnv = {};
    const step = browserSetupStepWith({
      executablePath: '/usr/bin/chromium',
      exists: () => installed,
      install: async () => void (installed = true),
      env,
    });
    await step.setUp(log);
    expect(env).toEqual({});
    expect(lines).toEqual([
      "browser: /usr/bin/chromium is missing; installing Debian's chromium",
      'browser: installed /usr/bin/chromium',
    ]);
  });

  it('given Chromium is missing, when the install fails, then the reason is handed to the tests and logged', async () => {
    const env: NodeJS.ProcessEnv = {};
    const install = async (): Promise<void> => {
      throw new Error('apt-get update: exit 100: Temporary failure resolving the mirror');
    };
    await browserSetupStepWith({ executablePath: '/usr/bin/chromium', exists: () => false, install, env }).setUp(log);
    expect(env.TEAMLOG_BROWSER_SETUP_FAILED).toBe('apt-get update: exit 100: Temporary failure resolving the mirror');
    expect(lines.at(-1)).toBe(
      "browser: could not be set up, the dashboard's browser test will fail: apt-get update: exit 100: Temporary failure resolving the mirror",
    );
  });

  it('given an install that ends without the browser, then that is the recorded reason', async () => {
    const env: NodeJS.ProcessEnv = {};
    await browserSetupStepWith({
      executablePath: '/usr/bin/chromium',
      exists: () => false,
      install: async () => undefined,
      env,
    }).setUp(log);
    expect(env.TEAMLOG_BROWSER_SETUP_FAILED).toBe('apt-get installed chromium, but /usr/bin/chromium is still missing');
  });
});
