import dayjs from 'dayjs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { ui } from '../../src/runtime/uiText.ts';
import {
  type E2E,
  e2eAvailable,
  freshProfile,
  newPage,
  openDefault,
  signInAsDemo,
  startE2E,
  step,
} from './harness.ts';

/**
 * The expense app as shipped (PGlite in the worker, IndexedDB; a fresh browser profile): refusals
 * only the database can make reach the person with their catalogue message — an empty claim, a
 * line above the receipt threshold without a receipt (naming the line) — never "Something went
 * wrong" (issue 14, item 1).
 */
describe.skipIf(!e2eAvailable)('expenses in its default storage', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E('examples/expenses');
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('an empty claim and a line without its receipt are refused with their messages (items 1, 7)', async () => {
    const context = await freshProfile(e2e);
    const { page, errors } = await newPage(context);
    const spec = e2e.spec;
    const msg = (code: string) => formatMessage(resolve(spec), code);
    const action = (label: string) =>
      page.getByRole('group', { name: ui('actions') }).getByRole('button', { name: label });
    const choose = async (scope: Page | Locator, label: string, option: string) => {
      await scope.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    const TITLE = 'Default storage: customer visit';
    const LINE = 'Hotel two nights';
    try {
      await step(page, 'dsx-empty', async () => {
        await openDefault(page, e2e.url);
        await signInAsDemo(page, 'Employee');
        await page.getByRole('link', { name: 'New claim', exact: true }).first().click();
        await page.getByRole('textbox', { name: 'Title' }).fill(TITLE);
        await page.getByRole('button', { name: ui('create'), exact: true }).click();
        await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
        await action('Submit').click();
        await page.getByText(msg('CLAIM_EMPTY')).first().waitFor({ timeout: 20_000 });
      });
      await step(page, 'dsx-receipt', async () => {
        await page.getByRole('button', { name: ui('newRow', { label: 'expense line' }) }).click();
        const dialog = page.getByRole('dialog');
        const day = dayjs().subtract(2, 'day').format('D MMM YYYY');
        await dialog.getByRole('textbox', { name: 'Date' }).fill(day);
        await dialog.getByRole('textbox', { name: 'Date' }).press('Tab');
        await choose(dialog, 'Category', 'Travel');
        await dialog.getByRole('textbox', { name: 'Description' }).fill(LINE);
        await dialog.getByRole('textbox', { name: 'Amount' }).fill('310');
        await dialog.getByRole('button', { name: ui('add'), exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
        await page.getByRole('link', { name: LINE, exact: true }).waitFor();
        // The draft's total follows its lines before any submit (item 7).
        const total = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(310);
        await page.getByRole('main').getByText(total, { exact: true }).first().waitFor();
        await action('Submit').click();
        // Which line: the message names it.
        const label = spec.entities.line?.label ?? 'line';
        await page
          .getByText(ui('errorOnRow', { label, title: LINE, message: msg('RECEIPT_REQUIRED') }))
          .first()
          .waitFor({ timeout: 20_000 });
        await expect(page.getByText(msg('INTERNAL')).count()).resolves.toBe(0);
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 400_000);
});
