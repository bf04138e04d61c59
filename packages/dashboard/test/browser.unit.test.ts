import { ChromiumMissing, launchChromium } from './browser';

describe('launchChromium', () => {
  it('fails with a message naming scripts/setup-browser.sh when Chromium is missing, instead of skipping', async () => {
    const launching = launchChromium('/nonexistent/chromium');
    await expect(launching).rejects.toBeInstanceOf(ChromiumMissing);
    await expect(launching).rejects.toThrow('Chromium is missing at /nonexistent/chromium: run scripts/setup-browser.sh');
  });
});
