import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { build, resolveSpecFile } from '../../src/cli/devServer.ts';
import { routeTable } from '../../src/runtime/routeTable.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { serveDist } from './serveDist.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Every navigation screen of every reference app renders for every demo role without a page error. */
describe.skipIf(!available && process.env.CI !== 'true').each(['examples/helpdesk', 'examples/expenses'])(
  '%s: every screen',
  (app) => {
    let browser: Browser;
    let server: Server;
    let url: string;
    let spec: AppSpec;

    beforeAll(async () => {
      spec = (await import(resolveSpecFile(app))).default as AppSpec;
      const dist = resolve(`test-results/dist-${app.split('/').pop()}`);
      await build(app, dist);
      ({ url, server } = await serveDist(dist));
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      server?.close();
    });

    it('renders each navigation entry for each demo role', async () => {
      for (const account of demoAccounts(spec)) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        try {
          await page.goto(`${url}/?memory`);
          await page
            .getByRole('button', {
              name: new RegExp(`^${spec.roles.roles[account.role]?.label ?? account.role}`),
            })
            .click({ timeout: 60_000 });
          for (const route of routeTable(spec).navFor([account.role])) {
            await page
              .getByRole('link', { name: route.title, exact: true })
              .first()
              .click({ timeout: 20_000 });
            await page.getByRole('heading', { level: 1, name: route.title }).waitFor({ timeout: 20_000 });
          }
          expect(errors, `${account.role}: ${errors.join('\n')}`).toEqual([]);
        } catch (e) {
          mkdirSync('test-results', { recursive: true });
          await page.screenshot({
            path: join('test-results', `failure-${app.split('/').pop()}-${account.role}.png`),
          });
          throw e;
        } finally {
          await page.close();
        }
      }
    }, 240_000);
  },
);
