/** Where the dashboard's end-to-end test finds Chromium: Debian's `chromium` package (driven by playwright-core). */
export const chromiumPath = '/usr/bin/chromium';

/** Set by the jest global setup when Chromium could not be installed: the browser tests fail with this reason. */
export const browserSetupFailureVariable = 'TEAMLOG_BROWSER_SETUP_FAILED';
