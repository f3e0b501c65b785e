import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ui } from '../../src/runtime/uiText.ts';
import { everyScreenSuite } from './everyScreenSuite.ts';
import {
  blankTemplateApp,
  type E2E,
  e2eAvailable,
  go,
  newPage,
  openApp,
  signInAsDemo,
  startE2E,
  step,
} from './harness.ts';

// An app written from the blank template (`ninefold init`, filled in by fillBlankTemplate.ts),
// held to what the reference apps are: every screen, every role, light and dark, 360 and 1280 px.
const app = blankTemplateApp();
everyScreenSuite(app);

describe.skipIf(!e2eAvailable)('an app written from the blank template', () => {
  let e2e: E2E;
  let page: Page;
  beforeAll(async () => {
    e2e = await startE2E(app);
    ({ page } = await newPage(e2e.browser));
  }, 400_000);
  afterAll(async () => e2e?.close());

  it('lists newest first, and says so, when its list screen names no order', async () => {
    await openApp(page, e2e.url);
    await signInAsDemo(page, 'Reader');
    // Three books through the form. Ids are random: in their order, three land newest first 1 time in 6.
    for (const title of ['Book A', 'Book B', 'Book C']) {
      await go(page, '/books/new');
      await page.getByRole('textbox', { name: 'Title' }).fill(title);
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
    }
    await page.getByRole('link', { name: 'Books', exact: true }).first().click();
    await step(page, 'blank-newest-first', () => page.locator('main tbody tr').nth(2).waitFor());
    await expect(
      page
        .locator('input')
        .and(page.getByLabel('Sort by', { exact: true }))
        .inputValue(),
    ).resolves.toBe(ui('fieldCreatedAt'));
    const titles = await page.locator('main tbody tr td:first-child').allInnerTexts();
    expect(titles.map((t) => t.trim())).toEqual(['Book C', 'Book B', 'Book A']);
  }, 120_000);
});
