// The one way these scripts run a browser: Debian's Chromium (CHROMIUM names another) through
// e2e's playwright-core, headless, with nothing that reaches out on its own. Used by the browser
// tests (tests/helpers.mjs), the screenshots (screenshots.mjs) and `npm run sizes`.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Whether there is a browser at CHROMIUM to launch. */
export const haveChromium = () => fs.existsSync(CHROMIUM);

/** Starts Chromium; Playwright gives a non-persistent launch its own fresh, temporary profile. */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
