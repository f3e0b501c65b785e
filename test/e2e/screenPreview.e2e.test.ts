import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenPreviewScript } from '../../src/cli/screenPreviewPlugin.ts';
import { appSlug } from '../../src/runtime/appSlug.ts';
import { previewKey, startMemoryKey } from '../../src/runtime/rememberedStart.ts';
import { previewHtml } from '../../src/runtime/screenPreview.ts';
import { ui } from '../../src/runtime/uiText.ts';
import {
  appWithFreshProfiles,
  blankPage,
  e2eAvailable,
  newPage,
  openTicketsAsAgent,
  step,
} from './harness.ts';

/**
 * A return visit shows a picture of the screen the person last looked at before any of the app's
 * code has run (the page's inline script, src/cli/screenPreviewPlugin.ts), then the live screen in
 * its place (src/runtime/screenPreview.ts). Built app, default storage, as a person gets it.
 */
describe.skipIf(!e2eAvailable)('a return visit shows the last screen’s picture first', () => {
  const suite = appWithFreshProfiles('examples/helpdesk');
  const { fresh } = suite;
  let key = '';
  beforeAll(() => {
    key = previewKey(startMemoryKey(appSlug(suite.e2e.spec)));
  });

  /**
   * Records the picture the moment the page's script inserts it (it may be replaced by the live
   * screen before a locator could look): its HTML and whether its content is inert.
   */
  const recordPicture = (context: BrowserContext) =>
    context.addInitScript(() => {
      const w = window as { __picture?: { html: string; inert: boolean } };
      const mo = new MutationObserver(() => {
        const el = document.getElementById('ninefold-preview');
        if (!el) return;
        w.__picture = { html: el.innerHTML, inert: el.querySelector(':scope > div[inert]') !== null };
        mo.disconnect();
      });
      mo.observe(document, { childList: true, subtree: true });
    });
  const picture = (page: Page) =>
    page.evaluate(() => (window as { __picture?: { html: string; inert: boolean } }).__picture ?? null);

  const mark = (page: Page, name: string) =>
    page.evaluate((n) => performance.getEntriesByName(n, 'mark')[0]?.startTime ?? null, name);
  const stored = (page: Page) => page.evaluate((k) => localStorage.getItem(k), key);
  const pathsKept = async (page: Page) =>
    (
      (JSON.parse((await stored(page)) ?? 'null') as { screens: { path: string }[] } | null)?.screens ?? []
    ).map((s) => s.path);

  /** Signs the agent in and opens the ticket list, until its picture is kept. */
  async function seeTickets(page: Page): Promise<string> {
    const title = await openTicketsAsAgent(page, suite.e2e.url);
    await expect.poll(() => pathsKept(page), { timeout: 20_000 }).toContain('/tickets');
    return title;
  }

  it('paints the picture before the app’s code runs, then the live screen takes its place', async () => {
    const context = await fresh();
    const { page: first, errors } = await newPage(context);
    let title = '';
    await step(first, 'preview-first-visit', async () => {
      title = await seeTickets(first);
      await first.close();
    });
    expect(title).not.toBe('');
    await recordPicture(context);
    const { page, errors: again } = await newPage(context);
    await step(page, 'preview-return-visit', async () => {
      await page.goto(`${suite.e2e.url}/tickets`);
      // The picture showed the list's rows; nothing in it could be clicked, focused or read out.
      await expect.poll(() => picture(page), { timeout: 30_000 }).not.toBeNull();
      const shownPicture = await picture(page);
      expect(shownPicture?.inert).toBe(true);
      expect(shownPicture?.html).toContain(`>${title}</a>`);
      // The live screen replaced it, and works.
      await page.locator('#ninefold-preview').waitFor({ state: 'detached', timeout: 120_000 });
      const live = page.locator('main tbody tr a').first();
      await expect.poll(() => live.textContent(), { timeout: 30_000 }).toBe(title);
      const shown = await mark(page, 'ninefold:preview-shown');
      const uiLoaded = await mark(page, 'ninefold:ui-loaded');
      const replaced = await mark(page, 'ninefold:preview-replaced');
      expect(shown).not.toBeNull();
      expect(uiLoaded).not.toBeNull();
      // Before the UI's code had even loaded.
      expect(shown as number).toBeLessThan(uiLoaded as number);
      expect(replaced as number).toBeGreaterThan(uiLoaded as number);
      await live.click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 60_000 });
    });
    expect([...errors, ...again]).toEqual([]);
  }, 400_000);

  it('is not shown at another address, from another build, or after signing out', async () => {
    const context = await fresh();
    await recordPicture(context);
    let { page, errors } = await newPage(context);
    const allErrors = errors;
    /**
     * Changes what is stored from a blank page of the origin: leaving an app page pictures it
     * (pagehide), which would overwrite the change.
     */
    const editStored = async (edit: (key: string) => void) => {
      await page.close();
      const blank = await blankPage(context, suite.e2e.url);
      await blank.evaluate(edit, key);
      await blank.close();
      ({ page, errors } = await newPage(context));
      allErrors.push(...errors);
    };
    await step(page, 'preview-not-shown', async () => {
      await seeTickets(page);
      // Another address: a ticket never opened here has no picture.
      await page.goto(`${suite.e2e.url}/tickets/00000000-0000-4000-8000-000000000000`);
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
      expect(await mark(page, 'ninefold:preview-shown')).toBeNull();
      // Another build: the picture names the entry script that drew it.
      await editStored((k) => {
        const p = JSON.parse(localStorage.getItem(k) ?? 'null');
        p.build = '/assets/index-0ld8u1ld.js';
        localStorage.setItem(k, JSON.stringify(p));
      });
      await page.goto(`${suite.e2e.url}/tickets`);
      await page.locator('main tbody tr a').first().waitFor({ timeout: 60_000 });
      expect(await mark(page, 'ninefold:preview-shown')).toBeNull();
      // What localStorage holds is shown as data, never run: another script of the origin could
      // have written it. (First the picture this build takes of the list, in place of the other's.)
      await expect
        .poll(
          () =>
            page.evaluate(
              (k) =>
                JSON.parse(localStorage.getItem(k) ?? 'null')?.build ===
                document.querySelector('script[type="module"][src]')?.getAttribute('src'),
              key,
            ),
          { timeout: 20_000 },
        )
        .toBe(true);
      await editStored((k) => {
        const p = JSON.parse(localStorage.getItem(k) ?? 'null');
        const hostile =
          '<img src="x" onerror="window.__pwned=1"><a id="js" href="javascript:window.__pwned=2">x</a>' +
          '<script>window.__pwned=3</script><svg><animate onbegin="window.__pwned=4" attributeName="x" dur="1s"/></svg>';
        for (const sc of p.screens) if (sc.path === '/tickets') sc.html = hostile + sc.html;
        localStorage.setItem(k, JSON.stringify(p));
      });
      await page.goto(`${suite.e2e.url}/tickets`);
      await expect.poll(() => picture(page), { timeout: 30_000 }).not.toBeNull();
      const shownPicture = (await picture(page))?.html ?? '';
      expect(shownPicture).toContain('<tbody');
      expect(shownPicture).toContain('<a id="js">x</a>');
      expect(shownPicture).not.toMatch(/__pwned|<script|onerror|onbegin/);
      await page.locator('main tbody tr a').first().waitFor({ timeout: 60_000 });
      await page.waitForTimeout(1500);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      // Signing out forgets every picture with the start.
      await expect.poll(() => pathsKept(page), { timeout: 20_000 }).toContain('/tickets');
      await page.getByRole('button', { name: /^Signed in as/ }).click();
      await page.getByRole('menuitem', { name: ui('signOut') }).click();
      await page
        .getByRole('button', { name: /^Agent/ })
        .first()
        .waitFor();
      expect(await stored(page)).toBeNull();
      await page.goto(`${suite.e2e.url}/tickets`);
      await page
        .getByRole('button', { name: /^Agent/ })
        .first()
        .waitFor({ timeout: 60_000 });
      expect(await mark(page, 'ninefold:preview-shown')).toBeNull();
    });
    expect(allErrors).toEqual([]);
  }, 400_000);

  it('draws the picture’s content (`main`) a frame after the rest', async () => {
    const context = await fresh();
    const page = await context.newPage();
    const picturePage = `${suite.e2e.url}/__picture`;
    // The page's inline script as built, over a stored picture, with no app code to replace it.
    await page.route(picturePage, (r) =>
      r.fulfill({
        contentType: 'text/html',
        body:
          '<!doctype html><html><body><div id="root"></div>' +
          '<script type="module" src="/assets/none.js"></script>' +
          '<script>window.__seen=[];new MutationObserver(function(){var m=document.querySelector("#ninefold-preview main");' +
          'if(m&&!window.__seen.length)window.__seen.push(m.style.contentVisibility)}).observe(document,{childList:true,subtree:true})</script>' +
          `<script>${screenPreviewScript(key)}</script></body></html>`,
      }),
    );
    await page.goto(picturePage);
    await page.evaluate((k) => {
      const html =
        '<header>Header</header><main style="background: white"><table><tbody><tr><td>Row</td></tr></tbody></table></main>';
      localStorage.setItem(
        k,
        JSON.stringify({
          v: 1,
          build: '/assets/none.js',
          user: 'u',
          expiresAt: Date.now() + 60_000,
          screens: [{ path: '/__picture', scheme: null, wide: innerWidth >= 768, html }],
        }),
      );
    }, key);
    await page.reload();
    const main = page.locator('#ninefold-preview main');
    // Inserted hidden (its header drawn first), then shown.
    expect(await page.evaluate(() => (window as { __seen?: string[] }).__seen)).toEqual(['hidden']);
    await expect.poll(() => main.evaluate((m) => (m as HTMLElement).style.contentVisibility)).toBe('');
    expect(await main.evaluate((m) => m.checkVisibility())).toBe(true);
    expect(await main.getAttribute('style')).toBe('background: white;');
    await page.close();
  }, 60_000);

  it('keeps no scripts, event handlers or typed text in a picture', async () => {
    const context = await fresh();
    const { page } = await newPage(context);
    await page.setContent('<!doctype html><title>blank</title>');
    const html = await page.evaluate(
      ([source, markup]) => {
        const fn = new Function(`return ${source}`)() as (root: Element) => string;
        const root = document.createElement('div');
        root.innerHTML = markup;
        return fn(root);
      },
      [
        previewHtml.toString(),
        '<p onclick="steal()">Row</p><img src="x" onerror="steal()"><script>steal()</script>' +
          '<iframe src="/x"></iframe><input value="half-typed secret"><textarea>draft</textarea>' +
          '<a href="javascript:steal()">link</a><input readonly value="Created">',
      ] as const,
    );
    expect(html).toContain('<p>Row</p>');
    expect(html).toContain('value="Created"');
    expect(html).toContain('<a>link</a>');
    expect(html).not.toMatch(/steal|script|iframe|secret|draft|onerror|onclick/);
  }, 60_000);

  it('keeps only the rows a window shows with nothing scrolled (and a quarter window more)', async () => {
    const context = await fresh();
    const { page } = await newPage(context);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.setContent('<!doctype html><title>blank</title><body style="margin:0">');
    const kept = await page.evaluate((source) => {
      const fn = new Function(`return ${source}`)() as (root: Element) => string;
      const root = document.createElement('div');
      root.innerHTML = `<div style="height:400px;overflow:auto" id="scroller"><table style="border-collapse:collapse"><tbody>${Array.from(
        { length: 100 },
        (_, i) => `<tr style="height:40px"><td>Row ${i}</td></tr>`,
      ).join('')}</tbody></table></div>`;
      document.body.append(root);
      // Scrolled at the moment of the picture: the picture still starts at the top.
      (root.querySelector('#scroller') as HTMLElement).scrollTop = 1000;
      const copy = document.createElement('div');
      copy.innerHTML = fn(root);
      return [...copy.querySelectorAll('tr')].map((tr) => tr.textContent);
    }, previewHtml.toString());
    // 800 px × 1.25 = 1,000 px of 40 px rows.
    expect(kept).toHaveLength(25);
    expect(kept[0]).toBe('Row 0');
  }, 60_000);
});
