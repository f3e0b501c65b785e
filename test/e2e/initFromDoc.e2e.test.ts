import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { ui } from '../../src/runtime/uiText.ts';
import { fillBlankTemplate } from './fillBlankTemplate.ts';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  e2eAvailable,
  journey,
  newPage,
  openApp,
  signInAsDemo,
  step,
} from './harness.ts';
import { serveDist } from './serveDist.ts';

/**
 * From a blank nine-point document to a running app, as a new user would: `ninefold init --from
 * blank`, fill in the template (here: by writing the file), `ninefold build doc.md`, open the
 * built app, sign in as a demo user and create a row. The build comes from this repository's
 * command line; the generated package.json depends on `ninefold` as a published project would.
 */

describe.skipIf(!e2eAvailable)('init --from blank, fill the document, build it, use the app', () => {
  let dir = '';
  let url = '';
  let server: Server | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let errors: string[];
  const it = journey();

  beforeAll(async () => {
    dir = join(mkdtempSync(join(tmpdir(), 'nf-e2e-init-')), 'reading-list');
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  it('ninefold init --from blank makes the project', async () => {
    const out: string[] = [];
    const io = { out: (t: string) => void out.push(t), err: (t: string) => void out.push(t) };
    expect(await main(['init', '--from', 'blank', dir], io)).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies.ninefold).toBeDefined();
  });

  it(
    'the filled document passes check and builds',
    async () => {
      const filled = fillBlankTemplate(readFileSync(join(dir, 'doc.md'), 'utf8'));
      writeFileSync(join(dir, 'doc.md'), filled);
      const out: string[] = [];
      const io = { out: (t: string) => void out.push(t), err: (t: string) => void out.push(t), cwd: dir };
      expect(await main(['check', join(dir, 'doc.md')], io), out.join('')).toBe(0);
      const code = await main(['build', join(dir, 'doc.md'), '--out-dir', join(dir, 'dist')], io);
      expect(code, out.join('')).toBe(0);
      ({ url, server } = await serveDist(join(dir, 'dist')));
    },
    15 * 60_000,
  );

  it(
    'a demo reader signs in and suggests a book',
    async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      ({ page, errors } = await newPage(browser));
      await step(page, 'init-doc-create', async () => {
        await openApp(page, url);
        await signInAsDemo(page, 'Reader');
        await page.getByRole('link', { name: 'Suggest a book', exact: true }).first().click();
        await page.getByRole('textbox', { name: 'Title' }).fill('The Left Hand of Darkness');
        await page.getByRole('textbox', { name: 'Author' }).fill('Ursula K. Le Guin');
        await page.getByRole('button', { name: ui('create'), exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'The Left Hand of Darkness' }).waitFor();
        await page.getByRole('link', { name: 'Books', exact: true }).first().click();
        await page.getByRole('link', { name: 'The Left Hand of Darkness' }).first().waitFor();
      });
      expect(errors).toEqual([]);
    },
    5 * 60_000,
  );
});
