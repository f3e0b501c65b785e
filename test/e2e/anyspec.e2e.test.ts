import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ui } from '../../src/runtime/uiText.ts';
import {
  type E2E,
  e2eAvailable,
  go,
  journey,
  newPage,
  openApp,
  signInAsDemo,
  startE2E,
  step,
  viaHook,
} from './harness.ts';

/**
 * Issue 16 in the built app of a specification from outside the reference apps
 * (`test/anyspec/polls`): enum values that are not names show their labels (item 2), a list
 * filtered by a rule with a count lists exactly its rows (item 10), and a transition whose input a
 * row rule requires in the target state is enabled once the input is typed (item 7).
 */
describe.skipIf(!e2eAvailable)('any specification: polls', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];
  const it = journey();
  const ids: Record<string, string> = {};
  const consoleErrors: string[] = [];
  const create = async (entity: string, values: Record<string, unknown>) => {
    const r = await viaHook(page, 'data', 'create', entity, values);
    if (!('ok' in r)) throw new Error(`create ${entity}: ${r.error}`);
    return (r.ok as { id: string }).id;
  };
  const rowOf = (title: string) => page.getByRole('row').filter({ hasText: title });

  beforeAll(async () => {
    e2e = await startE2E('test/anyspec/polls');
    ({ page, errors } = await newPage(e2e.browser));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text().slice(0, 300));
    });
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('a new poll picks "45 minutes"; lists, filters and the detail show labels, never the raw value', async () => {
    await step(page, 'anyspec-labels', async () => {
      await openApp(page, e2e.url);
      // The first boot migrates a fresh in-memory database; a loaded runner needs longer than a click.
      await page
        .getByRole('button', { name: /^Member/ })
        .first()
        .waitFor({ timeout: 150_000 })
        .catch((e: unknown) => {
          throw new Error(
            `no sign-in screen (errors: ${[...errors, ...consoleErrors].join(' | ') || 'none'}): ${e}`,
          );
        });
      await signInAsDemo(page, 'Member');
      await go(page, '/polls/new');
      await page.getByRole('heading', { level: 1, name: 'New poll' }).waitFor();
      await page.getByRole('textbox', { name: 'Title' }).fill('Budget review');
      await page.getByRole('combobox', { name: 'Length' }).click();
      await page.getByRole('option', { name: '45 minutes', exact: true }).click();
      await page.getByRole('combobox', { name: 'Stage' }).click();
      await page.getByRole('option', { name: 'Waiting on the board', exact: true }).click();
      // Listed tags offer their labels (the input used to list the raw values).
      await page.getByRole('combobox', { name: 'Rooms' }).click();
      await expect(page.getByRole('option', { name: 'big-room' }).count()).resolves.toBe(0);
      await page.getByRole('option', { name: 'The big room', exact: true }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: ui('create'), exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Budget review' }).waitFor();
      ids.budget = new URL(page.url()).pathname.split('/').pop() ?? '';
      const main = page.getByRole('main');
      await main.getByText('45 minutes', { exact: true }).first().waitFor();
      await main.getByText('Waiting on the board', { exact: true }).first().waitFor();
      await main.getByText('The big room', { exact: true }).first().waitFor();
      // Stored as the value itself: the number's text and the text with its space.
      const stored = await viaHook(page, 'data', 'get', 'poll', ids.budget);
      expect(stored).toMatchObject({ ok: { minutes: '45', stage: 'on hold', rooms: ['big-room'] } });

      ids.roadmap = await create('poll', { title: 'Roadmap', minutes: '25', stage: 'in-review' });
      ids.offsite = await create('poll', { title: 'Offsite', minutes: '45' });
      await go(page, '/polls');
      await page.getByRole('heading', { level: 1, name: 'Polls' }).waitFor();
      await expect.poll(() => rowOf('Roadmap').textContent(), { timeout: 15_000 }).toContain('In review');
      await expect(rowOf('Budget review').textContent()).resolves.toMatch(/45 minutes.*Waiting on the board/);
      await expect(rowOf('Offsite').textContent()).resolves.toContain('45 minutes');
      await expect(page.getByRole('main').textContent()).resolves.not.toMatch(
        /Min45|In-review|On hold|big-room/,
      );
      expect(errors).toEqual([]);
    });
  }, 240_000);

  it('"Awaiting my vote" lists exactly the open polls without my vote (a count, applied by the server)', async () => {
    await step(page, 'anyspec-awaiting', async () => {
      await create('vote', { poll: ids.budget });
      await go(page, '/polls/awaiting');
      await page.getByRole('heading', { level: 1, name: 'Awaiting my vote' }).waitFor();
      await rowOf('Offsite').waitFor({ timeout: 15_000 });
      const titles = async () =>
        (await page.getByRole('main').getByRole('row').allTextContents()).filter(
          (t) => !t.startsWith('Title'),
        );
      await expect.poll(async () => (await titles()).length, { timeout: 15_000 }).toBe(2);
      const rows = await titles();
      expect(rows.some((t) => t.includes('Offsite'))).toBe(true);
      expect(rows.some((t) => t.includes('Roadmap'))).toBe(true);
      expect(rows.some((t) => t.includes('Budget review'))).toBe(false);
      expect(errors).toEqual([]);
    });
  });

  it('closing asks for the outcome: disabled with the rule’s message until it is typed, then closes', async () => {
    await step(page, 'anyspec-close', async () => {
      await go(page, `/polls/${ids.roadmap}`);
      await page.getByRole('heading', { level: 1, name: 'Roadmap' }).waitFor();
      await page
        .getByRole('group', { name: ui('actions') })
        .getByRole('button', { name: 'Close poll' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Close poll' });
      const submit = dialog.getByRole('button', { name: 'Close poll' });
      await dialog.getByText('Say what the poll decided before closing it.').waitFor();
      await expect(submit.isDisabled()).resolves.toBe(true);
      await dialog.getByRole('textbox', { name: 'Outcome' }).fill('Ship the roadmap in May.');
      await expect.poll(() => submit.isDisabled(), { timeout: 5_000 }).toBe(false);
      await expect(dialog.getByText('Say what the poll decided before closing it.').count()).resolves.toBe(0);
      await submit.click();
      await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
      await page.getByRole('main').getByText('Closed', { exact: true }).first().waitFor({ timeout: 15_000 });
      const stored = await viaHook(page, 'data', 'get', 'poll', ids.roadmap);
      expect(stored).toMatchObject({ ok: { status: 'closed', outcome: 'Ship the roadmap in May.' } });
      expect(errors).toEqual([]);
    });
  });
});
