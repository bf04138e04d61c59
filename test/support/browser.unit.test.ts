import { ChromiumMissing, launchChromium } from './browser';

describe('launchChromium', () => {
  it('fails with a message naming scripts/setup-browser.sh when Chromium is missing, instead of skipping', async () => {
    const launching = launchChromium('/nonexistent/chromium', {});
    await expect(launching).rejects.toBeInstanceOf(ChromiumMissing);
    await expect(launching).rejects.toThrow(
      'Chromium is missing at /nonexistent/chromium: install it (scripts/setup-browser.sh does)',
    );
  });

  it('says why the global setup could not install Chromium, when it tried', async () => {
    const launching = launchChromium('/nonexistent/chromium', {
      TEAMLOG_BROWSER_SETUP_FAILED: 'apt-get update: exit 100: no network',
    });
    await expect(launching).rejects.toThrow(
      "the test run's global setup could not install Debian's chromium (apt-get update: exit 100: no network)",
    );
  });
});
