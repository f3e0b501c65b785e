import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { fieldLabel } from '../../src/react/labels.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { ui } from '../../src/runtime/uiText.ts';
import {
  dismissToasts,
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
  waitForPosted,
} from './harness.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * Issue 14's records a person reads, in the helpdesk as shipped (worker + IndexedDB, no `?memory`):
 * the history (item 9), the CSV export (item 10), ratings (item 13) and "Waiting on me" (item 16),
 * along one ticket's life.
 */
describe.skipIf(!e2eAvailable)('helpdesk records in its default storage', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let ticketPath = '';
  const SUBJECT = 'Badge printer prints blank cards';
  const it = journey();

  beforeAll(async () => {
    e2e = await startE2E('examples/helpdesk');
    context = await freshProfile(e2e);
    ({ page, errors } = await newPage(context));
  }, 400_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await e2e?.close();
  });

  const action = (label: string) =>
    page.getByRole('group', { name: ui('actions') }).getByRole('button', { name: label, exact: true });
  const status = (label: string) =>
    page.getByRole('main').getByText(label, { exact: true }).first().waitFor({ timeout: 15_000 });
  const historyCard = () =>
    page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: ui('history') }) });
  const open = async (path: string) => {
    await page.evaluate((p) => {
      history.pushState({}, '', p);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  };
  const waitingCard = () =>
    page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: ui('waitingOnMe') }) });

  it('a customer files a ticket; an agent takes it, edits it and comments', async () => {
    await step(page, 'rec-file', async () => {
      await openDefault(page, e2e.url);
      await signInAsDemo(page, 'Customer');
      await page.getByRole('link', { name: 'Tickets', exact: true }).first().click();
      // The list's own button (the navigation has a link of the same name for some roles).
      await page
        .locator('#main')
        .getByRole('link', { name: /new ticket/i })
        .click();
      await page.getByLabel('Subject').fill(SUBJECT);
      await page
        .getByLabel('Description')
        .fill('Since this morning every card comes out blank, front and back.');
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: SUBJECT }).waitFor({ timeout: 30_000 });
      ticketPath = new URL(page.url()).pathname;
    });
    await step(page, 'rec-agent-edits', async () => {
      await switchDemo(page, 'Agent');
      await open(ticketPath);
      await page.getByRole('heading', { level: 1, name: SUBJECT }).waitFor({ timeout: 30_000 });
      await action('Take').click();
      await status('Open');
      // The server's answer (not only the optimistic badge) before editing its new version.
      await historyCard().getByText('New → Open').waitFor({ timeout: 15_000 });
      await page.getByRole('link', { name: ui('edit'), exact: true }).click();
      await page.getByRole('combobox', { name: 'Priority' }).click();
      await page.getByRole('option', { name: 'High', exact: true }).click();
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: SUBJECT }).waitFor({ timeout: 30_000 });
      await dismissToasts(page);
      await page.getByLabel('Message').fill('Checked the ribbon: it is empty. Ordering a new one.');
      await page.getByRole('button', { name: ui('add'), exact: true }).click();
      await waitForPosted(page, 'Ordering a new one.');
    });
  }, 400_000);

  it('the history shows the edit and the comment, with names and readable dates (item 9)', async () => {
    await step(page, 'rec-history', async () => {
      const card = historyCard();
      await card.getByText(ui('historyEdited'), { exact: true }).waitFor({ timeout: 15_000 });
      await card
        .getByText(ui('historyAdded', { label: 'Comment' }), { exact: true })
        .waitFor({ timeout: 15_000 });
      // The edit says which field became what from what, in words (the label "High", not `high`).
      await expect(card.getByText(/Priority:\s*Normal\s*→\s*High/).count()).resolves.toBe(1);
      await expect(card.getByText(ui('noHistory')).count()).resolves.toBe(0);
      await card.getByText('New → Open').waitFor();
      // Who ("You" to oneself; the name to others, below) and when, never an id or an ISO timestamp.
      await card
        .getByText(/^You · \d{1,2} \w{3} \d{4} \d{2}:\d{2}$/)
        .first()
        .waitFor();
      const text = (await card.textContent()) ?? '';
      expect(text).not.toMatch(UUID);
      expect(text).not.toMatch(ISO);
    });
  }, 60_000);

  it('an agent does not wait on a customer; the customer does (item 16)', async () => {
    await step(page, 'rec-waiting-agent', async () => {
      await action('Wait on customer').click();
      await status('Waiting on customer');
      await open('/');
      const card = waitingCard();
      await card.waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1_000);
      await expect(card.getByText(SUBJECT).count()).resolves.toBe(0);
      await expect(card.getByText('Waiting on customer', { exact: true }).count()).resolves.toBe(0);
    });
    await step(page, 'rec-waiting-customer', async () => {
      await switchDemo(page, 'Customer');
      await open('/');
      await waitingCard().getByText(SUBJECT).waitFor({ timeout: 15_000 });
    });
  }, 60_000);

  it('a customer rates the solved ticket; reopening withdraws the rating (item 13)', async () => {
    await step(page, 'rec-solve', async () => {
      await switchDemo(page, 'Agent');
      await open(ticketPath);
      await action('Solve').click();
      const dialog = page.getByRole('dialog', { name: 'Solve' });
      await dialog.getByLabel('Resolution').fill('Replaced the ribbon; test cards print fine again.');
      await dialog.getByRole('button', { name: 'Solve' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 15_000 });
      await status('Solved');
    });
    await step(page, 'rec-rate', async () => {
      await switchDemo(page, 'Customer');
      await open(ticketPath);
      // Seen by the customer: who did it, by name.
      await historyCard()
        .getByText(/^Demo Agent · /)
        .first()
        .waitFor({ timeout: 15_000 });
      await action('Rate').click();
      const dialog = page.getByRole('dialog', { name: 'Rate' });
      await dialog.getByRole('combobox', { name: 'Rating' }).click();
      await page.getByRole('option', { name: 'Good', exact: true }).click();
      await dialog.locator('button[type=submit]').click();
      await dialog.waitFor({ state: 'detached', timeout: 15_000 });
      // Shown on the ticket, and rated once.
      const details = page.locator('.mantine-Card-root', {
        has: page.getByRole('heading', { name: ui('details') }),
      });
      await details.getByText('Rating', { exact: true }).waitFor({ timeout: 15_000 });
      await details.getByText('Good', { exact: true }).waitFor();
      await expect.poll(() => action('Rate').isDisabled(), { timeout: 10_000 }).toBe(true);
      await expect(action('Rate').getAttribute('aria-description')).resolves.toBe(
        formatMessage(resolve(e2e.spec), 'ALREADY_RATED'),
      );
    });
    await step(page, 'rec-reopen', async () => {
      await action('Reopen').click();
      const dialog = page.getByRole('dialog', { name: 'Reopen' });
      await dialog.getByLabel('Reason for reopening').fill('Blank again after fifty cards.');
      await dialog.locator('button[type=submit]').click();
      await dialog.waitFor({ state: 'detached', timeout: 15_000 });
      await status('Open');
      const details = page.locator('.mantine-Card-root', {
        has: page.getByRole('heading', { name: ui('details') }),
      });
      await expect
        .poll(() => details.getByText('Rating', { exact: true }).count(), { timeout: 10_000 })
        .toBe(0);
    });
  }, 90_000);

  it('CSV export has every row of the filter, with names and labels (item 10)', async () => {
    await step(page, 'rec-csv', async () => {
      await switchDemo(page, 'Agent');
      await open('/tickets');
      const counted = page.getByRole('main').getByText(/^\d+ tickets$/);
      await counted.waitFor({ timeout: 30_000 });
      const total = Number(((await counted.textContent()) ?? '').split(' ')[0]);
      // More than a page: the file must not stop at the rows on screen.
      expect(total).toBeGreaterThan(50);
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 120_000 }),
        page.getByRole('button', { name: ui('exportCsv') }).click(),
      ]);
      const csv = readFileSync((await download.path()) ?? '', 'utf8');
      const lines = csv.trim().split(/\r\n/);
      const columns = e2e.spec.screens.tickets?.columns ?? [];
      expect(lines[0]).toBe(columns.map((c) => fieldLabel(resolve(e2e.spec), 'ticket', c)).join(','));
      expect(lines.length - 1).toBe(total);
      expect(csv).not.toMatch(UUID);
      expect(csv).not.toMatch(ISO);
      const mine = lines.find((l) => l.startsWith(SUBJECT)) ?? '';
      // What the list shows: the state's label, the priority's label, people by name.
      expect(mine).toContain('Open');
      expect(mine).toContain('High');
      expect(mine).toContain('Demo Customer');
      expect(mine).toContain('Demo Agent');
      expect(csv).not.toMatch(/,(open|pending|solved|high|normal|low),/);
    });
    expect(errors).toEqual([]);
  }, 180_000);
});
