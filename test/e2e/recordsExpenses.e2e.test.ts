import dayjs from 'dayjs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { ui } from '../../src/runtime/uiText.ts';
import {
  type E2E,
  e2eAvailable,
  freshProfile,
  journey,
  newPage,
  openDefault,
  signInAsDemo,
  startE2E,
  step,
  switchDemo,
} from './harness.ts';

/**
 * Issue 14's expense items in the app as shipped (worker + IndexedDB, a fresh profile): a claim's
 * lines read and edited on the claim, a negative distance refused, a long purpose kept inside its
 * card (item 14), and a manager's "Waiting on me" (item 16).
 */
describe.skipIf(!e2eAvailable)('expense records in its default storage', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let claimPath = '';
  const TITLE = 'Records: trade fair Utrecht';
  const LINE = 'Fair entrance ticket';
  const it = journey();
  const euro = (n: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(n);

  beforeAll(async () => {
    e2e = await startE2E('examples/expenses');
    context = await freshProfile(e2e);
    ({ page, errors } = await newPage(context));
  }, 400_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await e2e?.close();
  });

  const choose = async (scope: Page | Locator, label: string, option: string) => {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  const linesCard = () =>
    page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: /^Expense lines/ }) });

  it('a 5,000-character purpose wraps inside its card', async () => {
    await step(page, 'rx-purpose', async () => {
      await openDefault(page, e2e.url);
      await signInAsDemo(page, 'Employee');
      await page.getByRole('link', { name: 'New claim', exact: true }).first().click();
      await page.getByRole('textbox', { name: 'Title' }).fill(TITLE);
      // Words and one unbroken run (a pasted link), 5,000 characters in all.
      const purpose = `${'Meeting suppliers at the fair. '.repeat(100)}${'x'.repeat(1900)}`.slice(0, 5000);
      expect(purpose).toHaveLength(5000);
      await page.getByRole('textbox', { name: 'Business purpose' }).fill(purpose);
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor({ timeout: 30_000 });
      claimPath = new URL(page.url()).pathname;
      const card = page.locator('.mantine-Card-root', {
        has: page.getByRole('heading', { name: ui('details') }),
      });
      const run = card.getByText(/x{100}/);
      await run.waitFor();
      const [cardBox, textBox] = await Promise.all([card.boundingBox(), run.boundingBox()]);
      expect(textBox && cardBox && textBox.x + textBox.width).toBeLessThanOrEqual(
        (cardBox?.x ?? 0) + (cardBox?.width ?? 0),
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    });
  }, 400_000);

  it('a negative distance is refused in the browser with its message', async () => {
    await step(page, 'rx-distance', async () => {
      await page.getByRole('button', { name: ui('newRow', { label: 'expense line' }) }).click();
      const dialog = page.getByRole('dialog');
      await dialog
        .getByRole('textbox', { name: 'Date' })
        .fill(dayjs().subtract(3, 'day').format('D MMM YYYY'));
      await dialog.getByRole('textbox', { name: 'Date' }).press('Tab');
      await choose(dialog, 'Category', 'Travel');
      await dialog.getByRole('textbox', { name: 'Description' }).fill(LINE);
      await dialog.getByRole('textbox', { name: 'Amount' }).fill('20');
      await dialog.getByRole('textbox', { name: 'Distance (km)' }).fill('-10');
      await dialog.getByRole('button', { name: ui('add'), exact: true }).click();
      await dialog
        .getByText(formatMessage(resolve(e2e.spec), 'DISTANCE_NEGATIVE'))
        .waitFor({ timeout: 10_000 });
      await expect(dialog.isVisible()).resolves.toBe(true);
      await dialog.getByRole('textbox', { name: 'Distance (km)' }).fill('');
      await dialog.getByRole('button', { name: ui('add'), exact: true }).click();
      await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    });
  }, 60_000);

  it('the claim lists its line with amount, date and category, and the line can be edited', async () => {
    await step(page, 'rx-lines', async () => {
      const card = linesCard();
      await card.getByRole('link', { name: LINE, exact: true }).waitFor({ timeout: 15_000 });
      await card.getByText(euro(20)).waitFor();
      await card.getByText(dayjs().subtract(3, 'day').format('D MMM YYYY')).waitFor();
      await card.getByText('Travel', { exact: true }).waitFor();
    });
    await step(page, 'rx-edit-line', async () => {
      await linesCard()
        .getByRole('link', { name: `${ui('edit')}: ${LINE}` })
        .click();
      const amount = page.getByRole('textbox', { name: 'Amount' });
      await amount.waitFor({ timeout: 15_000 });
      await amount.fill('25.50');
      await choose(page, 'Category', 'Meals');
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: LINE }).waitFor({ timeout: 15_000 });
      await page.evaluate((p) => {
        history.pushState({}, '', p);
        dispatchEvent(new PopStateEvent('popstate'));
      }, claimPath);
      const card = linesCard();
      await card.getByText(euro(25.5)).waitFor({ timeout: 15_000 });
      await card.getByText('Meals', { exact: true }).waitFor();
      // The claim's history records the line added under it.
      await page.getByText(ui('historyAdded', { label: 'Expense line' }), { exact: true }).waitFor();
    });
  }, 60_000);

  it('a manager is not waiting on claims already approved (item 16)', async () => {
    await step(page, 'rx-waiting-manager', async () => {
      await switchDemo(page, 'Manager');
      await page.evaluate(() => {
        history.pushState({}, '', '/');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      const card = page.locator('.mantine-Card-root', {
        has: page.getByRole('heading', { name: ui('waitingOnMe') }),
      });
      await card.waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1_000);
      const approved = e2e.spec.states.claim?.states.approved?.label ?? 'approved';
      const financeApproved = e2e.spec.states.claim?.states.finance_approved?.label ?? 'finance_approved';
      await expect(card.getByText(approved, { exact: true }).count()).resolves.toBe(0);
      await expect(card.getByText(financeApproved, { exact: true }).count()).resolves.toBe(0);
    });
    expect(errors).toEqual([]);
  }, 60_000);
});
