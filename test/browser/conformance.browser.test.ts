import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { demoCredentials } from '../conformance/accounts.ts';
import { helpdeskSample, helpdeskScenarios } from '../conformance/helpdesk.ts';
import { runConformance } from '../conformance/runConformance.ts';
import { type BrowserHarness, type Nf, pageBackend, startBrowserHarness } from './pageBackend.ts';
import { CHROMIUM } from './testPage.ts';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== 'true') {
  console.log(`browser conformance skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
}

/**
 * The shared Backend conformance suite, unchanged, against the embedded adapter in headless
 * Chromium: PGlite in the multi-tab worker, persisted in IndexedDB. Every call of the suite runs
 * in the page (pageBackend.ts); the suite's clock is the page backend's clock.
 */
describe.runIf(hasChromium || process.env.CI === 'true')('Backend conformance in Chromium', () => {
  let harness: BrowserHarness;
  let page: Page;
  beforeAll(async () => {
    harness = await startBrowserHarness();
    page = await harness.open('idb://ninefold-conformance');
    await page.evaluate(() => (window as unknown as { nf: Nf }).nf.seedDemoAccounts());
  }, 180_000);
  afterAll(async () => {
    await harness?.close();
  });

  runConformance(helpdesk, {
    makeBackend: async ({ now }) => pageBackend(page, now),
    accounts: demoCredentials(helpdesk),
    sample: helpdeskSample,
    scenarios: helpdeskScenarios,
    controlsClock: true,
    // Each call is relayed into the page as data (pageBackend.ts); a signal cannot cross.
    takesSignals: false,
  });
});
