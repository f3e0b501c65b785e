import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ui } from '../../src/runtime/uiText.ts';
import {
  appWithFreshProfiles,
  dismissToasts,
  e2eAvailable,
  go,
  newPage,
  openDefault,
  signInAsDemo,
  step,
  switchDemo,
} from './harness.ts';

/**
 * The helpdesk as shipped (PGlite in the worker, IndexedDB; a fresh browser profile per test):
 * admins create and edit categories, agents write saved replies and insert them into a reply
 * (issue 14 item 5); Escape in a date picker inside a dialog closes only the picker (item 12);
 * staff-only screens opened by URL say "Not available" to customers (item 15).
 */
describe.skipIf(!e2eAvailable)('helpdesk admin screens and forms in default storage', () => {
  const suite = appWithFreshProfiles('examples/helpdesk');
  const { fresh } = suite;
  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: ui('navigation') }).getByRole('link', { name, exact: true });

  it('an admin creates and edits a category; an agent writes, edits and inserts a saved reply (item 5)', async () => {
    const { page, errors } = await newPage(await fresh());
    // Lower-case on purpose: a case-sensitive sort would put it after every capitalised name.
    const CATEGORY = 'accessibility and screen readers';
    const REPLY = 'Printer driver reset';
    const BODY = 'Please remove the printer, restart, and add it again from Settings.';
    await step(page, 'ha-category', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Admin');
      await nav(page, 'Categories').click();
      await page.getByRole('heading', { level: 1, name: 'Categories' }).waitFor();
      await page.getByRole('link', { name: ui('newRow', { label: 'Category' }) }).click();
      await page.getByRole('heading', { level: 1, name: 'New category' }).waitFor();
      await page.getByRole('textbox', { name: 'Name' }).fill(CATEGORY);
      await page
        .getByRole('textbox', { name: 'Description' })
        .fill('Screen readers, magnifiers and keyboard use.');
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: CATEGORY }).waitFor();
      await page.getByRole('link', { name: ui('edit') }).click();
      await page.getByRole('heading', { level: 1, name: 'Edit category' }).waitFor();
      await page
        .getByRole('textbox', { name: 'Description' })
        .fill('Screen readers, magnifiers, keyboard use and captions.');
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: CATEGORY }).waitFor();
      await page.getByText('Screen readers, magnifiers, keyboard use and captions.').waitFor();
      // The toast offers Undo: the description as it was comes back (item 3).
      await page.getByRole('button', { name: ui('undo') }).click();
      await page.getByText(ui('savedUndone')).waitFor();
      await page.getByText('Screen readers, magnifiers and keyboard use.').waitFor();
      await expect(
        page.getByText('Screen readers, magnifiers, keyboard use and captions.').count(),
      ).resolves.toBe(0);
      // Sorted by name without regard to case: first, before "Billing".
      await nav(page, 'Categories').click();
      const firstRow = page.getByRole('main').getByRole('row').nth(1);
      await expect.poll(() => firstRow.innerText()).toContain(CATEGORY);
    });
    await step(page, 'ha-saved-reply', async () => {
      await switchDemo(page, 'Agent');
      await nav(page, 'Saved replies').click();
      await page.getByRole('heading', { level: 1, name: 'Saved replies' }).waitFor();
      await page.getByRole('link', { name: ui('newRow', { label: 'Saved reply' }) }).click();
      await page.getByRole('heading', { level: 1, name: 'New saved reply' }).waitFor();
      await page.getByRole('textbox', { name: 'Title' }).fill(`${REPLY} (draft)`);
      await page.getByRole('textbox', { name: 'Text' }).fill(BODY);
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `${REPLY} (draft)` }).waitFor();
      await page.getByRole('link', { name: ui('edit') }).click();
      await page.getByRole('textbox', { name: 'Title' }).fill(REPLY);
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: REPLY }).waitFor();
      await page.getByText(BODY).waitFor();
    });
    await step(page, 'ha-insert-reply', async () => {
      await nav(page, 'Board').click();
      const card = page.getByRole('region', { name: 'New', exact: true }).getByRole('link').first();
      await card.waitFor({ timeout: 60_000 });
      await card.click();
      await page.getByRole('group', { name: ui('actions') }).waitFor();
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Hello,');
      await page.getByRole('combobox', { name: ui('insertSnippet', { label: 'saved reply' }) }).click();
      await page.getByRole('option', { name: REPLY, exact: true }).click();
      await expect.poll(() => box.inputValue()).toBe(`Hello,\n\n${BODY}`);
      await page.getByRole('button', { name: ui('add'), exact: true }).click();
      await page.getByText(BODY).first().waitFor();
      await expect.poll(() => box.inputValue()).toBe('');
    });
    await step(page, 'ha-delete-undo', async () => {
      await dismissToasts(page);
      await nav(page, 'Saved replies').click();
      const link = page.getByRole('main').getByRole('link', { name: REPLY, exact: true });
      await link.click();
      await page.getByRole('heading', { level: 1, name: REPLY }).waitFor();
      // Deleted at once, no "are you sure"; the toast offers Undo and the list no longer shows it.
      await page.getByRole('button', { name: ui('delete') }).click();
      await page.getByRole('heading', { level: 1, name: 'Saved replies' }).waitFor();
      await page.getByText(ui('deletedToast', { label: 'Saved reply' })).waitFor();
      await expect.poll(() => link.count()).toBe(0);
      await page.getByRole('button', { name: ui('undo') }).click();
      await page.getByRole('heading', { level: 1, name: REPLY }).waitFor();
      // Deleted again and left to go: sent when the toast goes, gone after a reload.
      await page.getByRole('button', { name: ui('delete') }).click();
      await page.getByRole('heading', { level: 1, name: 'Saved replies' }).waitFor();
      await page.mouse.move(1, 450);
      // Every such toast gone (the undone one may still be closing beside the new one).
      await expect
        .poll(() => page.getByText(ui('deletedToast', { label: 'Saved reply' })).count(), { timeout: 20_000 })
        .toBe(0);
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Saved replies' }).waitFor({ timeout: 60_000 });
      await page
        .getByRole('main')
        .getByText(/^\d+ saved repl/i)
        .waitFor();
      await expect(link.count()).resolves.toBe(0);
    });
    expect(errors).toEqual([]);
  }, 400_000);

  it('keyboard and layout basics: skip link, focus on the new page, dialogs start at their first field, badges whole', async () => {
    const { page, errors } = await newPage(await fresh());
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el
          ? `${el.tagName.toLowerCase()}|${el.getAttribute('id') ?? ''}|${el.textContent?.trim().slice(0, 40)}`
          : '';
      });
    await step(page, 'ha-sign-up', async () => {
      await openDefault(page, suite.e2e.url);
      const alert = page.getByRole('alert');
      await page.getByRole('textbox', { name: ui('email') }).fill('nobody@example.test');
      await page.locator('input[type=password]').fill('not-the-password');
      await page.getByRole('button', { name: ui('signIn'), exact: true }).click();
      await alert.waitFor();
      // Signing up starts clean: the sign-in error is not carried over.
      await page.getByRole('button', { name: ui('signUp'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: ui('signUpTitle') }).waitFor();
      await expect(alert.count()).resolves.toBe(0);
      // A malformed address gets the app's own message (the browser's bubble would stop the submit).
      await page.getByRole('textbox', { name: ui('email') }).fill('not-an-email');
      await page.locator('input[type=password]').fill('x');
      await page.getByRole('button', { name: ui('signUp'), exact: true }).click();
      await alert.waitFor();
      await expect(alert.innerText()).resolves.not.toBe('');
      await page.getByRole('button', { name: ui('signIn'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: ui('signInTitle') }).waitFor();
      await expect(alert.count()).resolves.toBe(0);
    });
    await step(page, 'ha-keyboard', async () => {
      await signInAsDemo(page, 'Agent');
      // A first visit is not greeted as a return.
      await expect(page.getByText(/welcome back/i).count()).resolves.toBe(0);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // The first Tab reaches the skip link, shown; following it puts focus in the main region.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: ui('skipToContent') });
      await expect.poll(focused).toMatch(new RegExp(`^a\\|.*${ui('skipToContent')}`));
      await expect(skip.boundingBox().then((b) => (b?.width ?? 0) > 20)).resolves.toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(focused).toMatch(/^main\|main\|/);
      // After a page change, focus is on the new page's heading.
      await nav(page, 'Tickets').click();
      await page.getByRole('heading', { level: 1, name: 'Tickets' }).waitFor();
      await expect.poll(focused).toBe('h1||Tickets');
      // Status badges are read whole: no label cut off with an ellipsis.
      const badges = page.getByRole('main').locator('.mantine-Badge-label');
      await badges.first().waitFor();
      const cut = await badges.evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
      );
      expect(cut).toEqual([]);
      // A dialog starts at its first field, not at its Close button.
      await nav(page, 'Board').click();
      const card = page.getByRole('region', { name: 'New', exact: true }).getByRole('link').first();
      await card.waitFor({ timeout: 60_000 });
      await card.click();
      await page
        .getByRole('group', { name: ui('actions') })
        .getByRole('button', { name: 'Triage and assign' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Triage and assign' });
      await dialog.waitFor();
      // Its first field that is not a searchable picker (those open their list on focus): Due.
      await expect
        .poll(() =>
          dialog.getByRole('button', { name: 'Due' }).evaluate((el) => el === document.activeElement),
        )
        .toBe(true);
    });
    expect(errors).toEqual([]);
  }, 400_000);

  it('Escape in the due-date picker of a dialog closes only the picker (item 12)', async () => {
    const { page, errors } = await newPage(await fresh());
    await step(page, 'ha-escape-picker', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Agent');
      await nav(page, 'Board').click();
      const card = page.getByRole('region', { name: 'New', exact: true }).getByRole('link').first();
      await card.waitFor({ timeout: 60_000 });
      await card.click();
      await page
        .getByRole('group', { name: ui('actions') })
        .getByRole('button', { name: 'Triage and assign' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Triage and assign' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Due' }).click();
      // The picker's month view is open (its day buttons are there).
      const days = page.locator('table button[data-date], table button.mantine-DateTimePicker-day');
      await days.first().waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => days.count()).toBe(0);
      // The dialog is still there once every transition is over: a dialog closing by that Escape
      // would still be visible while it fades out (Mantine: 200 ms), so look again after it.
      await page.waitForTimeout(1_000);
      await expect(dialog.isVisible()).resolves.toBe(true);
      await expect(dialog.getByRole('button', { name: 'Due' }).isVisible()).resolves.toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });
    expect(errors).toEqual([]);
  }, 400_000);

  it('staff-only screens opened by URL say "Not available" to a customer (item 15)', async () => {
    const { page, errors } = await newPage(await fresh());
    await step(page, 'ha-staff-only', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Customer');
      const titles: Record<string, string> = {
        '/board': 'Board',
        '/queue': 'My queue',
        '/replies': 'Saved replies',
        '/admin/categories': 'Categories',
        '/admin/users': 'Users',
      };
      for (const [path, title] of Object.entries(titles)) {
        // From a page with another heading, so the wait below cannot be met by the last page's.
        await go(page, '/tickets');
        await page.getByRole('heading', { level: 1, name: 'Tickets' }).waitFor();
        await go(page, path);
        await page.getByRole('heading', { level: 1, name: ui('forbiddenTitle') }).waitFor();
        // And the screen itself is not drawn under it (its heading, its rows).
        await expect(page.getByRole('heading', { level: 1, name: title, exact: true }).count()).resolves.toBe(
          0,
        );
      }
      // Opened by URL from outside the app too (a reload of the address).
      await page.goto(`${suite.e2e.url}/board`);
      await page.getByRole('heading', { level: 1, name: ui('forbiddenTitle') }).waitFor({ timeout: 60_000 });
    });
    expect(errors).toEqual([]);
  }, 400_000);
});
