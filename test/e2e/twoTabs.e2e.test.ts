import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ui } from '../../src/runtime/uiText.ts';
import {
  builtApp,
  CHROMIUM,
  CHROMIUM_ARGS,
  e2eAvailable,
  journey,
  newPage,
  signInAsDemo,
  step,
} from './harness.ts';
import { serveDist } from './serveDist.ts';

/**
 * Two tabs of the same app in one browser profile share one database (PGlite in the multi-tab
 * worker, persisted in IndexedDB — not `?memory`): what one tab does shows in the other without
 * a reload. A fresh profile directory, so no earlier run's data is there.
 */
describe.skipIf(!e2eAvailable)('helpdesk in two tabs', () => {
  let context: BrowserContext;
  let close: () => Promise<void>;
  let url = '';
  let profile = '';
  let a: Page;
  let b: Page;
  const errors: string[] = [];
  // Each page's own record (page errors, crashed screens), read at the end.
  const pageErrors: string[][] = [];
  const it = journey();
  const SUBJECT = 'Two tabs: VPN drops every hour';

  beforeAll(async () => {
    const dir = await builtApp('examples/helpdesk');
    const served = await serveDist(dir);
    url = served.url;
    profile = mkdtempSync(join(tmpdir(), 'ninefold-two-tabs-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    close = async () => {
      await context.close();
      served.server.close();
      rmSync(profile, { recursive: true, force: true });
    };
  }, 180_000);

  afterAll(async () => {
    await close?.();
  });

  it('boots both tabs on the one shared database', async () => {
    const first = await newPage(context);
    a = first.page;
    pageErrors.push(first.errors);
    a.on('pageerror', (e) => errors.push(`A: ${e.message}`));
    // Falling back to a database inside the page would not be "shared across tabs".
    a.on('console', (m) => m.text().includes('worker unavailable') && errors.push(`A: ${m.text()}`));
    await step(a, 'tabs-a-boot', async () => {
      await a.goto(`${url}/`);
      await signInAsDemo(a, 'Agent');
    });
    const second = await newPage(context);
    b = second.page;
    pageErrors.push(second.errors);
    b.on('pageerror', (e) => errors.push(`B: ${e.message}`));
    b.on('console', (m) => m.text().includes('worker unavailable') && errors.push(`B: ${m.text()}`));
    await step(b, 'tabs-b-boot', async () => {
      // Same origin, same localStorage: the second tab is signed in as the same agent.
      await b.goto(`${url}/board`);
      await b.getByRole('heading', { level: 1, name: 'Board' }).waitFor({ timeout: 60_000 });
    });
  }, 120_000);

  it('a ticket filed in one tab appears on the board of the other, without reload', async () => {
    await step(a, 'tabs-create', async () => {
      await a.getByRole('link', { name: 'New ticket', exact: true }).first().click();
      await a.getByRole('textbox', { name: 'Subject' }).fill(SUBJECT);
      await a
        .getByRole('textbox', { name: 'Description' })
        .fill('The VPN client disconnects on the hour, every hour, since the update.');
      await a.getByRole('button', { name: ui('create'), exact: true }).click();
      await a.getByRole('heading', { level: 1, name: SUBJECT }).waitFor();
    });
    await step(b, 'tabs-b-sees-new', async () => {
      await b.getByRole('region', { name: 'New' }).getByText(SUBJECT).waitFor({ timeout: 15_000 });
    });
  }, 60_000);

  it('a transition in one tab moves the card in the other', async () => {
    await step(a, 'tabs-take', async () => {
      await a
        .getByRole('group', { name: ui('actions') })
        .getByRole('button', { name: 'Take' })
        .click();
      await a.getByRole('main').getByText('Open', { exact: true }).first().waitFor();
    });
    await step(b, 'tabs-b-sees-open', async () => {
      await b.getByRole('region', { name: 'Open' }).getByText(SUBJECT).waitFor({ timeout: 15_000 });
      await expect(b.getByRole('region', { name: 'New' }).getByText(SUBJECT).count()).resolves.toBe(0);
    });
    expect([...errors, ...pageErrors.flat()]).toEqual([]);
  }, 60_000);
});
