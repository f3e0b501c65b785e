import dayjs from 'dayjs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { ui } from '../../src/runtime/uiText.ts';
import { valueOption } from '../../src/runtime/valueOptions.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import {
  type E2E,
  e2eAvailable,
  fileOf,
  go,
  journey,
  newPage,
  openApp,
  signInAsDemo,
  startE2E,
  step,
  switchDemo,
  viaHook,
} from './harness.ts';

/**
 * An expense claim from first line to payment: the employee makes a claim with lines and a
 * receipt, the manager returns it with a reason, the employee fixes and resubmits, the manager
 * approves, finance approves (the claim is above the threshold) and pays. And nobody approves or
 * pays their own claim: the button says why, and the server refuses too.
 */
describe.skipIf(!e2eAvailable)('expenses journey', () => {
  let e2e: E2E;
  let spec: AppSpec;
  let page: Page;
  let errors: string[];
  let claimPath = '';
  let _claimId = '';
  const it = journey();
  const TITLE = 'Customer visit Lyon, March';
  const msg = (code: string, row: Record<string, unknown> = {}) => formatMessage(resolve(spec), code, row);
  const action = (label: string) =>
    page.getByRole('group', { name: ui('actions') }).getByRole('button', { name: label, exact: true });
  const status = (label: string) =>
    page.getByRole('main').getByText(label, { exact: true }).first().waitFor({ timeout: 15_000 });

  beforeAll(async () => {
    e2e = await startE2E('examples/expenses');
    spec = e2e.spec;
    ({ page, errors } = await newPage(e2e.browser));
  }, 180_000);

  afterAll(async () => {
    await e2e?.close();
  });

  const choose = async (scope: Page | Locator, label: string, option: string) => {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  /** Adds an expense line through the claim page's dialog. */
  const addLine = async (line: { date: string; category: string; description: string; amount: string }) => {
    await page.getByRole('button', { name: ui('newRow', { label: 'expense line' }) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Date' }).fill(line.date);
    await dialog.getByRole('textbox', { name: 'Date' }).press('Tab');
    await choose(dialog, 'Category', line.category);
    await dialog.getByRole('textbox', { name: 'Description' }).fill(line.description);
    await dialog.getByRole('textbox', { name: 'Amount' }).fill(line.amount);
    await dialog.getByRole('button', { name: ui('add'), exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: line.description, exact: true }).waitFor();
  };

  it('the employee makes a claim with lines and a receipt and submits it', async () => {
    await step(page, 'ex-claim', async () => {
      await openApp(page, e2e.url);
      // No setup: the demo employee (and the demo finance account) report to the demo manager.
      await signInAsDemo(page, 'Employee');
      await page.getByRole('link', { name: 'New claim', exact: true }).first().click();
      await page.getByRole('textbox', { name: 'Title' }).fill(TITLE);
      await page.getByRole('textbox', { name: 'Business purpose' }).fill('Quarterly review with Lumière SA.');
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      claimPath = new URL(page.url()).pathname;
      _claimId = claimPath.split('/').pop() ?? '';
      await status('Draft');
    });
    await step(page, 'ex-lines', async () => {
      const day = dayjs().subtract(3, 'day').format('D MMM YYYY');
      await addLine({
        date: day,
        category: 'Travel',
        description: 'Train Paris–Lyon return',
        amount: '1240.50',
      });
      await addLine({ date: day, category: 'Meals', description: 'Lunch with client', amount: '18' });
    });
    await step(page, 'ex-submit-needs-receipt', async () => {
      // The receipt rule is the database's (it counts receipts): the refusal shows its message.
      await action('Submit').click();
      await page.getByText(msg('RECEIPT_REQUIRED')).first().waitFor();
      await status('Draft');
    });
    await step(page, 'ex-receipt', async () => {
      await page.getByRole('link', { name: 'Train Paris–Lyon return', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Train Paris–Lyon return' }).waitFor();
      const max = spec.constants.maxReceiptMb?.value as number;
      const input = page.locator('input[type=file]');
      await input.setInputFiles(fileOf('too-big.pdf', max * 1048576 + 1));
      await page.getByText(msg('RECEIPT_TOO_LARGE')).first().waitFor();
      await input.setInputFiles(fileOf('sncf-ticket.pdf', 4096));
      await page.getByText('sncf-ticket.pdf').waitFor();
      // Back to the claim through the breadcrumbs (the line's Claim field links there too).
      await page
        .getByRole('navigation', { name: ui('breadcrumbs') })
        .getByRole('link', { name: TITLE })
        .click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    });
    await step(page, 'ex-submit', async () => {
      await action('Submit').click();
      await status('Awaiting manager');
    });
  }, 90_000);

  it('the manager returns it with a reason', async () => {
    await step(page, 'ex-return', async () => {
      await switchDemo(page, 'Manager');
      await page.getByRole('link', { name: 'To approve', exact: true }).first().click();
      await page.getByRole('link', { name: TITLE }).click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      await action('Return for changes').click();
      const dialog = page.getByRole('dialog', { name: 'Return for changes' });
      const reason = dialog.getByRole('textbox', { name: 'Changes requested' });
      await reason.fill('Split');
      await dialog.getByText(msg('REASON_TOO_SHORT')).waitFor();
      await reason.fill('Please add the taxi from the station, it is missing.');
      await dialog.locator('button[type=submit]').click();
      await dialog.waitFor({ state: 'detached' });
      await status('Returned for changes');
    });
  }, 60_000);

  it('the employee fixes it and submits again; the manager approves', async () => {
    await step(page, 'ex-fix', async () => {
      await switchDemo(page, 'Employee');
      await go(page, claimPath);
      await status('Returned for changes');
      await page.getByText('Please add the taxi from the station, it is missing.').first().waitFor();
      const day = dayjs().subtract(2, 'day').format('D MMM YYYY');
      await addLine({
        date: day,
        category: 'Travel',
        description: 'Taxi station to client',
        amount: '22.40',
      });
      await action('Submit').click();
      await status('Awaiting manager');
    });
    await step(page, 'ex-approve', async () => {
      await switchDemo(page, 'Manager');
      await go(page, claimPath);
      await action('Approve').click();
      await status('Approved by manager');
    });
  }, 60_000);

  it('finance approves above the threshold; the same person may not also pay it', async () => {
    await step(page, 'ex-finance', async () => {
      await switchDemo(page, 'Finance');
      await page.getByRole('link', { name: 'Finance queue', exact: true }).first().click();
      // The queue's rule is `status in (approved, finance_approved)`: its status filter offers those.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option').first().waitFor();
      await expect(page.getByRole('option').allTextContents()).resolves.toEqual(
        ['approved', 'finance_approved'].map((v) => valueOption(resolve(spec), 'claim', 'status', v).label),
      );
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: TITLE }).click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      const pay = action('Mark as paid');
      await expect(pay.isDisabled()).resolves.toBe(true);
      await expect(pay.getAttribute('aria-description')).resolves.toBe(msg('FINANCE_APPROVAL_REQUIRED'));
      await action('Approve (finance)').click();
      await status('Approved by finance');
      // Separation of duties (a rule of the spec): whoever approved for finance may not also pay.
      // The button says why, and the server refuses the same way.
      await expect.poll(() => pay.getAttribute('aria-description')).toBe(msg('DUTIES_NOT_SEPARATED'));
      await expect(pay.isDisabled()).resolves.toBe(true);
      const id = new URL(page.url()).pathname.split('/').pop() ?? '';
      await expect(
        viaHook(page, 'data', 'transition', 'claim', id, 'pay', { paymentReference: 'TRF-2026-0042' }),
      ).resolves.toEqual({ error: 'DUTIES_NOT_SEPARATED' });
      await status('Approved by finance');
    });
  }, 60_000);

  it('nobody approves or pays their own claim: the button says why, the server refuses', async () => {
    let ownPath = '';
    await step(page, 'ex-own-claim', async () => {
      await page.getByRole('link', { name: 'New claim', exact: true }).first().click();
      await page.getByRole('textbox', { name: 'Title' }).fill('Books for the finance team');
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Books for the finance team' }).waitFor();
      ownPath = new URL(page.url()).pathname;
      await addLine({
        date: dayjs().subtract(1, 'day').format('D MMM YYYY'),
        category: 'Office',
        description: 'Accounting handbook',
        amount: '19.90',
      });
      await action('Submit').click();
      await status('Awaiting manager');
      await switchDemo(page, 'Manager');
      await go(page, ownPath);
      await action('Approve').click();
      await status('Approved by manager');
    });
    await step(page, 'ex-self-approval', async () => {
      await switchDemo(page, 'Finance');
      await go(page, ownPath);
      await status('Approved by manager');
      for (const label of ['Approve (finance)', 'Mark as paid']) {
        const button = action(label);
        await expect(button.isDisabled(), label).resolves.toBe(true);
        await expect(button.getAttribute('aria-description'), label).resolves.toBe(msg('SELF_APPROVAL'));
      }
      const id = ownPath.split('/').pop() ?? '';
      await expect(viaHook(page, 'data', 'transition', 'claim', id, 'finance_approve')).resolves.toEqual({
        error: 'SELF_APPROVAL',
      });
      await expect(
        viaHook(page, 'data', 'transition', 'claim', id, 'pay', { paymentReference: 'SELF-1' }),
      ).resolves.toEqual({ error: 'SELF_APPROVAL' });
      await status('Approved by manager');
    });
    expect(errors).toEqual([]);
  }, 90_000);
});
