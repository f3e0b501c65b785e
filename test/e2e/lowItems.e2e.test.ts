import dayjs from 'dayjs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { ui } from '../../src/runtime/uiText.ts';
import {
  appWithFreshProfiles,
  dismissToasts,
  e2eAvailable,
  fileOf,
  newPage,
  openDefault,
  signInAsDemo,
  step,
} from './harness.ts';

/**
 * The helpdesk as shipped (PGlite in the worker, IndexedDB; a fresh browser profile per test), the
 * low items of issue 14: no past due date (the picker's first day comes from the spec's
 * `DUE_IN_PAST` rule; an overdue ticket can still be worked), breadcrumbs, "My profile", upload
 * progress, and toasts on a phone that cover no button and never a dialog.
 */
describe.skipIf(!e2eAvailable)('helpdesk low items in default storage', () => {
  const suite = appWithFreshProfiles('examples/helpdesk');
  const { fresh } = suite;
  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: ui('navigation') }).getByRole('link', { name, exact: true });
  const crumbs = (page: Page) => page.getByRole('navigation', { name: ui('breadcrumbs') });

  it('the due-date picker starts today (DUE_IN_PAST), and an overdue ticket keeps its actions', async () => {
    const { page, errors } = await newPage(await fresh());
    await step(page, 'low-due-picker', async () => {
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
      // The demo ticket may come with a due date, and the calendar opens on its month (next
      // month near a month's end): cleared, it opens on the month of the first allowed day.
      const due = dialog.getByRole('button', { name: 'Due' });
      await due.waitFor();
      const clear = dialog.getByRole('button', { name: ui('clearValue'), exact: true });
      if (await clear.count()) {
        await clear.click();
        await expect.poll(() => due.textContent()).toBe('');
      }
      await due.click();
      const day = (d: dayjs.Dayjs) =>
        page.getByRole('button', { name: d.format('D MMMM YYYY'), exact: true });
      await day(dayjs()).waitFor();
      // Today is offered, yesterday is not: the rule `dueAt >= now` is the picker's first day.
      await expect(day(dayjs()).isDisabled()).resolves.toBe(false);
      // Yesterday is greyed out, or not in the month shown (today the 1st, a month starting Monday).
      const yesterday = day(dayjs().subtract(1, 'day'));
      if (await yesterday.count()) await expect(yesterday.isDisabled()).resolves.toBe(true);
      else expect(dayjs().date()).toBe(1);
      await page.keyboard.press('Escape');
      await expect.poll(() => day(dayjs()).count()).toBe(0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });
    await step(page, 'low-overdue-works', async () => {
      // The queue is sorted by due date: its first ticket with a date is overdue in the demo data.
      await nav(page, 'My queue').click();
      await page.getByRole('heading', { level: 1, name: 'My queue' }).waitFor();
      const first = page.getByRole('main').getByRole('table').getByRole('link').first();
      await first.waitFor({ timeout: 30_000 });
      // Its due date reads "… ago"; the exact time is its tooltip (a chunk loaded after the rows).
      const due = page.locator('table tbody').getByText(/ ago$/).first();
      await due.hover();
      await expect(page.getByRole('tooltip').textContent()).resolves.toMatch(
        /^\d{1,2} \w{3} \d{4} \d{2}:\d{2}$/,
      );
      await first.click();
      const actions = page.getByRole('group', { name: ui('actions') });
      await actions.waitFor();
      // The row's due date has passed, yet no button is held back by DUE_IN_PAST.
      await expect(
        page.getByText(formatMessage(resolve(suite.e2e.spec), 'DUE_IN_PAST')).count(),
      ).resolves.toBe(0);
      const enabled = await actions
        .getByRole('button')
        .evaluateAll((bs) => bs.filter((b) => !b.hasAttribute('disabled')).length);
      expect(enabled).toBeGreaterThan(0);
    });
    expect(errors).toEqual([]);
  }, 400_000);

  it('breadcrumbs lead back from a ticket and its edit form; columns can be chosen; upload progress shows while a file goes up', async () => {
    const { page, errors } = await newPage(await fresh());
    const TITLE = 'Breadcrumbs and a large log file';
    await step(page, 'low-crumbs', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Customer');
      await page.getByRole('link', { name: 'New ticket', exact: true }).first().click();
      await crumbs(page).getByRole('link', { name: 'Tickets' }).waitFor();
      await page.getByRole('textbox', { name: 'Subject' }).fill(TITLE);
      await page
        .getByRole('textbox', { name: 'Description' })
        .fill('The export stops half way; the log is attached below.');
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      const trail = crumbs(page);
      await trail.getByRole('link', { name: 'Tickets', exact: true }).waitFor();
      await expect(trail.locator('[aria-current="page"]').textContent()).resolves.toBe(TITLE);
      await page
        .getByRole('link', { name: ui('edit') })
        .first()
        .click();
      await page.getByRole('heading', { level: 1, name: 'Edit ticket' }).waitFor();
      // Tickets › the ticket › Edit ticket: the ticket is a link back, not "← Edit ticket".
      await crumbs(page).getByRole('link', { name: TITLE }).click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      // A demo ticket's category: the customer reads it, but the categories' list is the
      // administrators', so it is no crumb (its link led to "Not available").
      const category = page.locator('main a[href^="/admin/categories/"]');
      for (let row = 0; (await category.count()) === 0 && row < 8; row++) {
        await nav(page, 'Tickets').click();
        await page.locator('main tbody tr a').nth(row).click();
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
      }
      await category.first().click();
      await page
        .getByText(/^Created /)
        .first()
        .waitFor();
      await expect(page.getByRole('main').getByRole('link', { name: 'Categories' }).count()).resolves.toBe(0);
      await page.goBack();
      await crumbs(page).getByRole('link', { name: 'Tickets', exact: true }).waitFor();
    });
    await step(page, 'low-columns', async () => {
      // Column choice: hide Priority on the ticket list; it stays hidden after a reload.
      await page.getByRole('main').locator('nav').getByRole('link', { name: 'Tickets', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Tickets' }).waitFor();
      const header = page.getByRole('columnheader', { name: 'Priority', exact: true });
      await header.waitFor();
      await page.getByRole('button', { name: ui('columns'), exact: true }).click();
      await page.getByRole('checkbox', { name: 'Priority', exact: true }).uncheck();
      await page.keyboard.press('Escape');
      await expect.poll(() => header.count()).toBe(0);
      await page.reload();
      await page.getByRole('columnheader', { name: 'Subject', exact: true }).waitFor({ timeout: 60_000 });
      await expect(header.count()).resolves.toBe(0);
      await page.getByRole('link', { name: TITLE, exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    });
    await step(page, 'low-upload-progress', async () => {
      await dismissToasts(page);
      const input = page.locator('input[type=file]').first();
      await input.setInputFiles(fileOf('export-log.pdf', 9 * 1024 * 1024));
      // While it goes up: which file, how far (a status region, announced), then the file is listed.
      await page
        .getByRole('status')
        .filter({ hasText: ui('uploading', { name: 'export-log.pdf', percent: 0 }) })
        .waitFor({ timeout: 10_000 });
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'export-log.pdf' }).count(), {
          timeout: 60_000,
        })
        .toBe(0);
      await page.getByRole('main').getByText('export-log.pdf').first().waitFor();
    });
    expect(errors).toEqual([]);
  }, 400_000);

  it('a phone: My profile edits only what the rules allow; its toast covers no button of the page and no dialog', async () => {
    const { page, errors } = await newPage(await fresh({ width: 360, height: 740 }));
    await page.setViewportSize({ width: 360, height: 740 });
    const covered = () =>
      page.evaluate(() => {
        const toasts = [...document.querySelectorAll('.mantine-Notification-root')].map((t) =>
          t.getBoundingClientRect(),
        );
        const hits: string[] = [];
        for (const b of document.querySelectorAll('button, a[href]')) {
          // The header's menus wait under a phone toast for its few seconds; the page does not.
          if (b.closest('.mantine-Notification-root') || b.closest('header')) continue;
          const r = b.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          // Only what is on screen and not hidden (the burger's closed navigation is off screen).
          const cx = r.left + r.width / 2;
          const cy = r.top + r.height / 2;
          if (cx < 0 || cx > innerWidth || cy < 0 || cy > innerHeight) continue;
          for (const t of toasts)
            if (r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top)
              hits.push((b.textContent || b.getAttribute('aria-label') || b.tagName).trim());
        }
        return { toasts: toasts.length, hits };
      });
    await step(page, 'low-profile', async () => {
      await openDefault(page, suite.e2e.url);
      await signInAsDemo(page, 'Customer');
      await page.getByRole('button', { name: ui('signedInAs', { email: 'customer@demo.test' }) }).click();
      await page.getByRole('menuitem', { name: ui('myProfile') }).click();
      await page.getByRole('heading', { level: 1, name: ui('myProfile') }).waitFor();
      // The customer may change their name, organisation and phone, not their e-mail (spec rules).
      await expect(page.getByRole('textbox', { name: 'E-mail' }).isDisabled()).resolves.toBe(true);
      await page.getByRole('textbox', { name: 'Organisation' }).fill('Acme Widgets');
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await page.getByText(ui('profileSaved')).waitFor();
    });
    await step(page, 'low-phone-toast', async () => {
      const seen = await covered();
      expect(seen.toasts).toBeGreaterThan(0);
      expect(seen.hits, `buttons under the toast: ${seen.hits.join(', ')}`).toEqual([]);
      // Kept after a reload: it was saved.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: ui('myProfile') }).waitFor({ timeout: 60_000 });
      await expect(page.getByRole('textbox', { name: 'Organisation' }).inputValue()).resolves.toBe(
        'Acme Widgets',
      );
      // A toast still showing when a dialog opens stays beneath it: the dialog's buttons are on top.
      await page.getByRole('textbox', { name: 'Organisation' }).fill('Acme Widgets Ltd');
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await page.getByText(ui('profileSaved')).waitFor();
      // (The toast lies over the header's button: a click event on the button itself.)
      await page.getByRole('button', { name: ui('demoSwitch') }).dispatchEvent('click');
      await page.getByRole('menuitem', { name: ui('resetDemo') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      for (const name of [ui('cancel'), ui('resetDemo')]) {
        const button = dialog.getByRole('button', { name, exact: true });
        const onTop = await button.evaluate((b) => {
          const r = b.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit !== null && b.contains(hit);
        });
        expect(onTop, `${name} is on top`).toBe(true);
      }
      // …and the toast is under the dialog's overlay, not over it.
      const toastOnTop = await page
        .locator('.mantine-Notification-root')
        .first()
        .evaluate((t) => {
          const r = t.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit !== null && t.contains(hit);
        });
      expect(toastOnTop).toBe(false);
      await dialog.getByRole('button', { name: ui('cancel'), exact: true }).click();
    });
    await step(page, 'low-phone-list', async () => {
      // On a phone the filters fold away: the first tickets are on the first screen.
      await page.goto(`${suite.e2e.url}/tickets`);
      const firstRow = page.getByRole('table').getByRole('link').first();
      await firstRow.waitFor({ timeout: 60_000 });
      const box = await firstRow.boundingBox();
      expect(box && box.y + box.height).toBeLessThan(740);
      await expect(page.getByRole('combobox', { name: 'Priority' }).count()).resolves.toBe(0);
      await page.getByRole('button', { name: ui('filters') }).click();
      await page
        .getByRole('textbox', { name: 'Priority' })
        .or(page.getByRole('combobox', { name: 'Priority' }))
        .first()
        .waitFor();
    });
    expect(errors).toEqual([]);
  }, 400_000);
});
