import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ui } from '../../src/runtime/uiText.ts';
import {
  dismissToasts,
  type E2E,
  e2eAvailable,
  freshProfile,
  newPage,
  openDefault,
  seriousAxeViolations,
  signInAsDemo,
  startE2E,
  step,
} from './harness.ts';

/**
 * The Team Tasks demo as a first visitor gets it (built app, PGlite in the worker, IndexedDB; a
 * fresh browser profile): the owner of Northwind Studio sees that organisation only, its rates and
 * its overdue tasks, and approves a member's time; the demo member, in both organisations, sees
 * both and no rate at all.
 */
describe.skipIf(!e2eAvailable)('Team Tasks demo in its default storage', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E('examples/tasks');
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  /** Opens a navigation screen and waits for its table's rows (or its empty state). */
  const open = async (page: Page, title: string) => {
    await page.getByRole('link', { name: title, exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.waitForLoadState('networkidle');
  };
  const cells = (page: Page) => page.locator('main tbody tr');

  it('each account sees its organisations; rates only for owners; time approved from the queue', async () => {
    const context = await freshProfile(e2e);
    const { page, errors } = await newPage(context);
    try {
      await step(page, 'tasks-demo-owner', async () => {
        await openDefault(page, e2e.url);
        // Every role in an organisation has its demo account on the sign-in screen.
        for (const name of [
          /Demo Organisation owner/,
          /Demo Organisation administrator/,
          /Demo Project lead/,
          /Demo Member/,
        ])
          await expect(page.getByRole('button', { name }).count()).resolves.toBe(1);
        await signInAsDemo(page, 'Organisation owner');
        // The dashboard's widgets for some roles (relationship roles): the owner is an
        // organisation member and administrator, so work waiting on them and the limits show.
        await open(page, 'Dashboard');
        await page.getByRole('heading', { level: 2, name: ui('waitingOnMe') }).waitFor();
        await page.getByRole('heading', { level: 2, name: ui('targets') }).waitFor();
        await open(page, 'Organisations');
        await page.getByRole('main').getByRole('link', { name: 'Northwind Studio' }).first().waitFor();
        await expect(page.getByRole('main').getByText('Bluefin Labs').count()).resolves.toBe(0);
        // The organisation's page: its memberships titled by their role's label, its rates by the
        // hourly rate in its currency (not by a shortened id); the archived project's flag legible.
        await page.getByRole('main').getByRole('link', { name: 'Northwind Studio' }).first().click();
        const section = (plural: string) =>
          page
            .locator('main .mantine-Card-root')
            .filter({ has: page.getByRole('heading', { name: plural }) });
        const memberships = section('Memberships');
        await memberships.getByText('Owner', { exact: true }).first().waitFor();
        await expect(memberships.getByText('owner', { exact: true }).count()).resolves.toBe(0);
        const rates = section('Rates');
        await rates
          .getByText(/^€\d+\.\d\d$/)
          .first()
          .waitFor();
        await expect(rates.getByText(/^#[0-9a-f]{8}$/).count()).resolves.toBe(0);
        await page.getByText('Archived', { exact: true }).first().waitFor();
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);
        await open(page, 'Rates');
        await cells(page).first().waitFor();
        expect(await cells(page).count()).toBeGreaterThan(5);
        await open(page, 'Overdue');
        await cells(page).first().waitFor();
        await open(page, 'Time to approve');
        await cells(page).first().waitFor();
        await cells(page).first().locator('a').first().click();
        await page
          .getByRole('group', { name: ui('actions') })
          .getByRole('button', { name: 'Approve', exact: true })
          .click();
        await page.getByRole('main').getByText('Approved', { exact: true }).first().waitFor();
        await dismissToasts(page);
      });
      await step(page, 'tasks-demo-member', async () => {
        await page.getByRole('button', { name: ui('demoSwitch') }).click();
        await page.getByRole('menuitem', { name: /Demo Member/ }).click();
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForFunction(() => document.documentElement.dataset.ninefoldSession === 'confirmed');
        await open(page, 'Organisations');
        await page.getByRole('main').getByRole('link', { name: 'Bluefin Labs' }).first().waitFor();
        await page.getByRole('main').getByRole('link', { name: 'Northwind Studio' }).first().waitFor();
        // The limits are a widget for organisation administrators only: not on the member's dashboard.
        await open(page, 'Dashboard');
        await page.getByRole('heading', { level: 2, name: ui('waitingOnMe') }).waitFor();
        expect(await page.getByRole('heading', { name: ui('targets') }).count()).toBe(0);
        // Rates are in the navigation of organisation administrators only (a relationship role).
        await open(page, 'My tasks');
        expect(await page.getByRole('link', { name: 'Rates', exact: true }).count()).toBe(0);
        await cells(page).first().waitFor();
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 400_000);
});
