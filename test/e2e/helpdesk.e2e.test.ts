import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS as ARGS, builtApp, CHROMIUM } from './harness.ts';
import { serveDist } from './serveDist.ts';

const available = existsSync(CHROMIUM);
if (!available && process.env.CI !== 'true')
  console.log(`e2e skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
const RESULTS = resolve('test-results');

describe.skipIf(!available && process.env.CI !== 'true')('helpdesk end to end', () => {
  let browser: Browser;
  let page: Page;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    // The build every e2e file shares (cached by content hash).
    const dist = await builtApp('examples/helpdesk');
    ({ url, server } = await serveDist(dist));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('pageerror', (e) => console.error('pageerror', e.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  const shoot = async (name: string) => {
    mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
  };
  const step = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      await shoot(`failure-${name}`).catch(() => undefined);
      throw e;
    }
  };
  const axe = async (name: string) => {
    await page.addScriptTag({ content: readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8') });
    const violations = await page.evaluate(async () => {
      const w = window as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      };
      const r = await w.axe.run();
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n) =>
          `${n.target.join(' ')} ${(n as { failureSummary?: string }).failureSummary ?? ''}`.slice(0, 400),
        ),
      }));
    });
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    if (serious.length > 0) await shoot(`axe-${name}`);
    expect(serious, `${name}: ${JSON.stringify(serious)}`).toEqual([]);
  };

  it('signs in as the demo customer, files a ticket and sees it in the list', async () => {
    await step('sign-in', async () => {
      await page.goto(`${url}/?memory`);
      await page.getByRole('button', { name: /^Customer/ }).click({ timeout: 60_000 });
      await page.getByRole('link', { name: 'Tickets' }).first().waitFor({ timeout: 30_000 });
      await shoot('dashboard');
    });
    await step('file-ticket', async () => {
      await page.getByRole('link', { name: 'Tickets' }).first().click();
      // The list's own button (the navigation has a link of the same name for some roles).
      await page
        .locator('#main')
        .getByRole('link', { name: /new ticket/i })
        .click();
      await page.getByLabel(/subject/i).fill('Invoice PDF will not download');
      await page
        .getByLabel(/description/i)
        .fill('Clicking download on any invoice shows a blank page since Monday.');
      await shoot('form');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('heading', { name: 'Invoice PDF will not download' }).waitFor({ timeout: 15_000 });
      await shoot('detail');
    });
    await step('list', async () => {
      await page.getByRole('link', { name: 'Tickets' }).first().click();
      await page.getByRole('link', { name: 'Invoice PDF will not download' }).waitFor({ timeout: 15_000 });
      await shoot('list');
    });
    await step('agent-takes-it', async () => {
      await page.getByRole('button', { name: /switch demo account/i }).click();
      await page.getByRole('menuitem', { name: /^Agent/ }).click();
      await page.getByRole('link', { name: 'Board', exact: true }).first().waitFor({ timeout: 30_000 });
      await page.getByRole('link', { name: 'Board', exact: true }).first().click();
      await page.waitForURL(/\/board$/);
      await page
        .getByRole('region', { name: 'New' })
        .getByText('Invoice PDF will not download')
        .waitFor({ timeout: 15_000 });
      await shoot('board');
      await page.getByRole('link', { name: 'Invoice PDF will not download' }).first().click();
      await page.getByRole('button', { name: 'Take' }).click();
      await page.getByText('Open', { exact: true }).first().waitFor({ timeout: 15_000 });
      await page.getByText(/New → Open/).waitFor({ timeout: 15_000 });
      await shoot('detail-agent');
    });
    await step('drag-on-board', async () => {
      await page.getByRole('link', { name: 'Board', exact: true }).first().click();
      const card = page.getByRole('region', { name: 'Open' }).getByText('Invoice PDF will not download');
      await card.waitFor({ timeout: 15_000 });
      await card.dragTo(page.getByRole('region', { name: 'Waiting on customer' }));
      await page
        .getByRole('region', { name: 'Waiting on customer' })
        .getByText('Invoice PDF will not download')
        .waitFor({ timeout: 15_000 });
      await shoot('board');
    });
  }, 180_000);

  it('has no serious accessibility violations on the main screens', async () => {
    for (const path of ['/', '/tickets', '/tickets/new', '/board']) {
      await step(`axe${path.replace(/\//g, '-')}`, async () => {
        await page.evaluate((p) => {
          history.pushState({}, '', p);
          dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        await page.waitForTimeout(800);
        await axe(path);
      });
    }
  }, 120_000);
});
