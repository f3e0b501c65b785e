import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { ui } from '../../src/runtime/uiText.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import {
  type E2E,
  e2eAvailable,
  journey,
  newPage,
  openApp,
  ownerSql,
  signInAsDemo,
  startE2E,
  step,
  viaHook,
} from './harness.ts';

/** The messages a screen reader announces for an input: the text of what `aria-describedby` names. */
async function describedBy(input: Locator): Promise<string> {
  return input.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join('\n'),
  );
}

async function expectInline(input: Locator, message: string): Promise<void> {
  await expect.poll(() => describedBy(input), { timeout: 10_000 }).toContain(message);
  await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
}

/**
 * Editing what exists: a customer corrects their ticket (field rules inline; a save on a version
 * someone else changed meanwhile offers a reload that keeps what was typed and shows the other
 * change), and an administrator maintains a person's profile (reporting line and cost centre,
 * with the catalogue's messages for what the rules refuse).
 */
describe.skipIf(!e2eAvailable)('edit forms: helpdesk ticket as the customer', () => {
  let e2e: E2E;
  let spec: AppSpec;
  let page: Page;
  let errors: string[];
  let ticketId = '';
  const it = journey();
  const msg = (code: string, row: Record<string, unknown> = {}) => formatMessage(resolve(spec), code, row);

  beforeAll(async () => {
    e2e = await startE2E('examples/helpdesk');
    spec = e2e.spec;
    ({ page, errors } = await newPage(e2e.browser));
  }, 180_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows a field rule of the edit form inline', async () => {
    await step(page, 'edit-ticket-rule', async () => {
      await openApp(page, e2e.url);
      await signInAsDemo(page, 'Customer');
      await page.getByRole('link', { name: 'New ticket', exact: true }).first().click();
      await page.getByRole('textbox', { name: 'Subject' }).fill('Printer on floor 3 is offline');
      await page
        .getByRole('textbox', { name: 'Description' })
        .fill('Since this morning nothing prints from the third floor.');
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Printer on floor 3 is offline' }).waitFor();
      ticketId = new URL(page.url()).pathname.split('/').pop() ?? '';
      await page.getByRole('link', { name: ui('edit'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Edit ticket' }).waitFor();
      const subject = page.getByRole('textbox', { name: 'Subject' });
      await expect(subject.inputValue()).resolves.toBe('Printer on floor 3 is offline');
      const min = spec.constants.titleMinLength?.value as number;
      await subject.fill('x'.repeat(min - 1));
      await expectInline(subject, msg('TITLE_TOO_SHORT'));
      // Not saved: the rule holds the form back.
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await expectInline(subject, msg('TITLE_TOO_SHORT'));
      await page.getByRole('heading', { level: 1, name: 'Edit ticket' }).waitFor();
    });
  }, 60_000);

  it('saving a stale version offers a reload that keeps what was typed', async () => {
    await step(page, 'edit-ticket-stale', async () => {
      const subject = page.getByRole('textbox', { name: 'Subject' });
      const description = page.getByRole('textbox', { name: 'Description' });
      await subject.fill('All printers on floor 3 are offline');
      // Meanwhile the same ticket changes elsewhere (another tab of the customer, through the API).
      const got = (await viaHook(page, 'data', 'get', 'ticket', ticketId)) as { ok: { version: number } };
      const other = 'Since this morning nothing prints from the third floor, nor from the fourth.';
      await expect(
        viaHook(page, 'data', 'update', 'ticket', ticketId, got.ok.version, { description: other }),
      ).resolves.toMatchObject({ ok: { description: other } });
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      const stale = page.getByRole('dialog', { name: ui('staleTitle') });
      await stale.waitFor();
      await stale.getByRole('button', { name: ui('reloadLatest') }).click();
      await stale.waitFor({ state: 'detached' });
      // What was typed stays; the field left alone shows the other change.
      await expect(subject.inputValue()).resolves.toBe('All printers on floor 3 are offline');
      await expect.poll(() => description.inputValue()).toBe(other);
      await page.getByRole('button', { name: ui('save'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'All printers on floor 3 are offline' }).waitFor();
      await page.getByText(other).first().waitFor();
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it('asks before leaving unsaved changes: by a link, by back, and "Discard" goes on', async () => {
    await step(page, 'edit-ticket-unsaved', async () => {
      const title = 'All printers on floor 3 are offline';
      const detailPath = new URL(page.url()).pathname;
      const editHeading = page.getByRole('heading', { level: 1, name: 'Edit ticket' });
      const dialog = page.getByRole('dialog', { name: ui('unsavedTitle') });
      const subject = page.getByRole('textbox', { name: 'Subject' });
      const back = () => page.evaluate(() => history.back());
      await page.getByRole('link', { name: ui('edit'), exact: true }).click();
      await editHeading.waitFor();
      const editPath = new URL(page.url()).pathname;
      await subject.fill('A subject nobody saves');
      // A link in the navigation: held, and "Keep editing" stays with what was typed.
      await page
        .getByRole('navigation', { name: ui('navigation') })
        .getByRole('link', { name: 'Tickets', exact: true })
        .click();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: ui('keepEditing') }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe(editPath);
      await expect(subject.inputValue()).resolves.toBe('A subject nobody saves');
      // The browser's back button: held too, the address goes back to the form.
      await back();
      await dialog.waitFor();
      await expect.poll(() => new URL(page.url()).pathname).toBe(editPath);
      await dialog.getByRole('button', { name: ui('keepEditing') }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect(subject.inputValue()).resolves.toBe('A subject nobody saves');
      // Back again, and "Discard": the ticket as it was.
      await back();
      await dialog.getByRole('button', { name: ui('discard') }).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(new URL(page.url()).pathname).toBe(detailPath);
      // Forward to a clean form: nothing to lose, so nothing asks.
      await page.evaluate(() => history.forward());
      await editHeading.waitFor();
      await expect(subject.inputValue()).resolves.toBe(title);
      await page
        .getByRole('navigation', { name: ui('navigation') })
        .getByRole('link', { name: 'Tickets', exact: true })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Tickets' }).waitFor();
      expect(await dialog.count()).toBe(0);
    });
    expect(errors).toEqual([]);
  }, 60_000);
});

describe.skipIf(!e2eAvailable)('edit forms: expenses profile as the administrator', () => {
  let e2e: E2E;
  let spec: AppSpec;
  let page: Page;
  let errors: string[];
  const it = journey();
  const msg = (code: string, row: Record<string, unknown> = {}) => formatMessage(resolve(spec), code, row);
  const profileOf = async (email: string) =>
    (
      await ownerSql(
        page,
        `select p.id, p.version, p.cost_centre, m.email as manager from public.person p
          left join public.person m on m.id = p.manager where p.email = $1`,
        [email],
      )
    )[0] as { id: string; version: number; cost_centre: string | null; manager: string | null };
  const openProfile = async (email: string) => {
    await page
      .getByRole('row')
      .filter({ hasText: email })
      .getByRole('button', { name: ui('editProfile'), exact: true })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Manager' }).waitFor();
    return dialog;
  };
  const choose = async (scope: Locator, label: string, option: string) => {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  beforeAll(async () => {
    e2e = await startE2E('examples/expenses');
    spec = e2e.spec;
    ({ page, errors } = await newPage(e2e.browser));
  }, 180_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('refuses nobody-is-their-own-manager and a malformed cost centre with catalogue messages', async () => {
    await step(page, 'admin-profile-rules', async () => {
      await openApp(page, e2e.url);
      await signInAsDemo(page, 'Administrator');
      await page.getByRole('link', { name: 'People', exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
      const dialog = await openProfile('employee@demo.test');
      await expect(dialog.getByRole('heading').first().textContent()).resolves.toBe(
        ui('editProfileOf', { name: 'Demo Employee' }),
      );
      const manager = dialog.getByRole('combobox', { name: 'Manager' });
      // The demo reporting line: the demo employee reports to the demo manager.
      await expect.poll(() => manager.inputValue()).toBe('Demo Manager');
      // The form offers only managers the field's rules accept (issue 14, item 6): never the
      // person themselves (MANAGER_SELF).
      await manager.click();
      await page.getByRole('option', { name: 'Demo Finance', exact: true }).waitFor();
      await expect(page.getByRole('option', { name: 'Demo Employee', exact: true }).count()).resolves.toBe(0);
      await manager.press('Escape');
      const costCentre = dialog.getByRole('textbox', { name: 'Cost centre' });
      await costCentre.fill('4242');
      await expectInline(costCentre, msg('COST_CENTRE_INVALID'));
      await dialog.getByRole('button', { name: ui('save'), exact: true }).click();
      await expectInline(costCentre, msg('COST_CENTRE_INVALID'));
      // The database refuses it as well, with the same code.
      const me = await profileOf('employee@demo.test');
      await expect(
        viaHook(page, 'data', 'update', 'person', me.id, me.version, { manager: me.id }),
      ).resolves.toEqual({ error: 'MANAGER_SELF' });
      expect((await profileOf('employee@demo.test')).manager).toBe('manager@demo.test');
    });
  }, 60_000);

  it("sets an employee's manager and cost centre", async () => {
    await step(page, 'admin-profile-save', async () => {
      const dialog = page.getByRole('dialog');
      await choose(dialog, 'Manager', 'Demo Finance');
      await dialog.getByRole('textbox', { name: 'Cost centre' }).fill('CC-4242');
      await dialog.getByRole('button', { name: ui('save'), exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText(ui('profileSaved')).first().waitFor();
      await expect
        .poll(() => profileOf('employee@demo.test'))
        .toMatchObject({
          manager: 'finance@demo.test',
          cost_centre: 'CC-4242',
        });
      // The table shows the new reporting line; roles are still the admin's to grant there.
      const row = page.getByRole('row').filter({ hasText: 'employee@demo.test' });
      await row.getByText('Demo Finance', { exact: true }).waitFor();
      await row.getByText('CC-4242', { exact: true }).waitFor();
      await expect(row.getByRole('button', { name: ui('saveRoles') }).isDisabled()).resolves.toBe(true);
    });
    expect(errors).toEqual([]);
  }, 60_000);
});
