import dayjs from 'dayjs';
import 'dayjs/locale/de';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { setLocale } from '../../src/runtime/locale.ts';
import { UI_CATALOGUES } from '../../src/runtime/uiCatalogues.ts';
import { fillTemplate } from '../../src/runtime/uiText.ts';
import { localizeSpec } from '../../src/spec/localizeSpec.ts';
import {
  type E2E,
  e2eAvailable,
  freshProfile,
  newPage,
  openDefault,
  shoot,
  startE2E,
  step,
} from './harness.ts';

/**
 * The expense app as shipped (PGlite in the worker, IndexedDB), opened by a browser whose language
 * is German: the app speaks German from the first screen (its own texts from the German catalogue,
 * the spec's from its translations), a catalogue refusal arrives in German, amounts and dates are
 * written the German way; the language switch turns it to English and the choice is kept.
 */
describe.skipIf(!e2eAvailable)('expenses in German (browser locale de-DE)', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E('examples/expenses');
  }, 300_000);
  afterAll(async () => {
    setLocale('en');
    await e2e?.close();
  });

  it('navigation, a form, a refusal, an amount and a date in German; switching to English', async () => {
    const context = await freshProfile(e2e, { locale: 'de-DE' });
    const { page, errors } = await newPage(context);
    const de = UI_CATALOGUES.de;
    const en = UI_CATALOGUES.en;
    const spec = localizeSpec(e2e.spec, 'de');
    const msg = (code: string) => {
      setLocale('de');
      return formatMessage(resolve(spec), code);
    };
    const choose = async (scope: Page | Locator, label: string, option: string) => {
      await scope.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    const action = (label: string) =>
      page.getByRole('group', { name: de.actions }).getByRole('button', { name: label });
    const TITLE = 'Kundenbesuch Lyon';
    const LINE = 'Hotel zwei Nächte';
    const eur = (locale: string, n: number) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(n);
    try {
      await step(page, 'de-signin', async () => {
        await openDefault(page, e2e.url);
        await page.getByRole('heading', { level: 1, name: de.signInTitle }).waitFor();
        await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
        // The demo accounts carry the spec's role labels in German.
        await page.getByRole('button', { name: /^Mitarbeiter/ }).click({ timeout: 60_000 });
        await page.getByRole('navigation').first().waitFor({ timeout: 30_000 });
      });
      await step(page, 'de-targets', async () => {
        // The dashboard's targets in German words: "90 Tage", not "90 days".
        await page.getByRole('main').getByText('90 Tage', { exact: true }).waitFor();
      });
      await step(page, 'de-navigation', async () => {
        const nav = page.getByRole('navigation').first();
        await nav.getByRole('link', { name: 'Meine Abrechnungen' }).waitFor();
        await nav.getByRole('link', { name: 'Neue Abrechnung', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Neue Abrechnung' }).waitFor();
      });
      await step(page, 'de-form', async () => {
        // Submitting the empty form: the browser-side check speaks German too.
        await page.getByRole('button', { name: de.create, exact: true }).click();
        await page.getByText(de.required).first().waitFor();
        await page.getByRole('textbox', { name: 'Titel' }).fill(TITLE);
        await page.getByRole('button', { name: de.create, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      });
      await step(page, 'de-refusal', async () => {
        // Only the database refuses an empty claim: its catalogue message, in German.
        await action('Einreichen').click();
        await page.getByText(msg('CLAIM_EMPTY')).first().waitFor({ timeout: 20_000 });
        expect(msg('CLAIM_EMPTY')).toBe('Fügen Sie vor dem Einreichen mindestens eine Position hinzu.');
      });
      const day = dayjs().subtract(2, 'day').locale('de');
      await step(page, 'de-line', async () => {
        await page.getByRole('button', { name: fillTemplate(de.newRow, { label: 'Position' }) }).click();
        const dialog = page.getByRole('dialog');
        // The date picker reads and writes German dates ("21. Nov. 2026").
        await dialog.getByRole('textbox', { name: 'Datum' }).fill(day.format('D. MMM YYYY'));
        await dialog.getByRole('textbox', { name: 'Datum' }).press('Tab');
        await choose(dialog, 'Kategorie', 'Reise');
        await dialog.getByRole('textbox', { name: 'Beschreibung' }).fill(LINE);
        await dialog.getByRole('textbox', { name: 'Betrag' }).fill('310');
        await dialog.getByRole('button', { name: de.add, exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
        await page.getByRole('link', { name: LINE, exact: true }).waitFor();
      });
      await step(page, 'de-money-date', async () => {
        // "310,00 €": German grouping, decimal comma, symbol after the amount.
        expect(eur('de-DE', 310)).toMatch(/^310,00\s€$/);
        await page.getByRole('main').getByText(eur('de-DE', 310), { exact: true }).first().waitFor();
        // The line's date as German readers write it ("21. Nov. 2026"), and the claim's relative age.
        expect(day.format('D. MMM YYYY')).toMatch(/^\d{1,2}\. \S+ \d{4}$/);
        // Inside the line's summary ("Datum: 21. Nov. 2026 · Kategorie …"), so not an exact match.
        await page.getByRole('main').getByText(day.format('D. MMM YYYY')).first().waitFor();
        await page
          .getByText(/^Erstellt vor /)
          .first()
          .waitFor();
        await shoot(page, 'german-claim');
      });
      await step(page, 'de-receipt-refusal', async () => {
        await action('Einreichen').click();
        const text = fillTemplate(de.errorOnRow, {
          label: 'Position',
          title: LINE,
          message: msg('RECEIPT_REQUIRED'),
        });
        await page.getByText(text).first().waitFor({ timeout: 20_000 });
      });
      await step(page, 'de-to-english', async () => {
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: `${de.language}: Deutsch` }).click();
        await page.getByRole('menuitem', { name: 'English' }).click();
        // The page reloads in English, still signed in, the same claim.
        await page.getByRole('button', { name: `${en.language}: English` }).waitFor({ timeout: 120_000 });
        await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
        await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
        await page.getByRole('navigation').first().getByRole('link', { name: 'My claims' }).waitFor();
        await page.getByRole('main').getByText(eur('en-US', 310), { exact: true }).first().waitFor();
        await page.getByRole('group', { name: en.actions }).getByRole('button', { name: 'Submit' }).waitFor();
      });
      await step(page, 'en-kept', async () => {
        // The choice outlives a reload although the browser still prefers German.
        await page.reload();
        await page.getByRole('button', { name: `${en.language}: English` }).waitFor({ timeout: 120_000 });
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
});
