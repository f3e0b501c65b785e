/**
 * Ninefold Studio, built and served as static files, on a document written from scratch: the blank
 * template, filled in as a small reading club and pasted in; a misspelt field in a rule is marked
 * with a quick fix; the live app starts on new data, enforces a lowered limit with the catalogue's
 * message, shows a field added with a default on the existing book, refuses to remove a state a
 * book is in (and keeps running), and lets each role do what the permission matrix says.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStudio } from '../../src/cli/studioServer.ts';
import { CHROMIUM, CHROMIUM_ARGS, e2eAvailable, newPage, step } from './harness.ts';
import { FINISH, READING_STATE, readingClubDoc, START } from './readingClubDoc.ts';
import { serveDist } from './serveDist.ts';
import {
  deleteTexts,
  docText,
  errorMarkOver,
  liveFrame,
  liveRuns,
  liveTimes,
  matrixCell,
  nextLiveRun,
  openScreen,
  pasteDocument,
  portCall,
  signInAs,
  typeOver,
} from './studioPage.ts';

const BLANK = readFileSync('src/import/templates/blank.md', 'utf8');
const BOOK = 'Dune';
const FORMAT_FIELD = '| `format` | Format | text | | `paperback` | | | | ✓ | |\n';

describe.skipIf(!e2eAvailable)('Ninefold Studio (built): a document from the blank template', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ninefold-studio-blank-'));
    await buildStudio('docs/helpdesk.md', dir);
    ({ url, server } = await serveDist(dir));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes a reading club from the blank template and uses it live, as each role', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await newPage(context);
    let club = '';
    let bookId = '';

    await step(page, 'blank-new', async () => {
      await page.goto(`${url}/index.html`);
      await page.locator('html[data-studio="ready"]').waitFor();
      await page.getByRole('button', { name: 'New from the blank template' }).click();
      await expect.poll(() => docText(page)).toBe(BLANK);
      club = readingClubDoc(await docText(page));
      await pasteDocument(page, club);
      await expect.poll(() => page.locator('#status').textContent()).toContain('No errors');
      await page.getByRole('tab', { name: 'Live app' }).click();
      await page.locator('#live[data-state="ready"]').waitFor({ timeout: 60_000 });
      await signInAs(page, 'Demo Reader (reader)');
      // A new app on new data: none of the helpdesk's tables, its own book only.
      const made = (await portCall(page, 'data.create', 'book', {
        title: BOOK,
        author: 'Frank Herbert',
      })) as {
        id: string;
        status: string;
      };
      expect(made.status).toBe('suggested');
      bookId = made.id;
    });

    await step(page, 'blank-unknown-field', async () => {
      const rule = '`suggestedBy = me`: Title, Author';
      await typeOver(page, 'suggestedBy', 'sugestedBy', rule);
      const marked = await errorMarkOver(page, 'sugestedBy');
      const line = club.slice(0, club.indexOf(rule)).split('\n').length;
      expect(await page.locator('#problems').textContent()).toContain(`line ${line}, column`);
      await marked.hover();
      await page.getByRole('button', { name: 'Replace with suggestedBy' }).click();
      await expect.poll(() => docText(page)).toBe(club);
      await expect.poll(() => page.locator('#status').textContent()).toContain('No errors');
    });

    await step(page, 'blank-constant', async () => {
      const runs = await liveRuns(page);
      await typeOver(page, '| 120 |', '| 5 |', '`titleMax`');
      await nextLiveRun(page, runs);
      await openScreen(page, 'Suggest a book');
      const frame = liveFrame(page);
      await frame.getByLabel('Title').fill('Dune Messiah');
      await frame.getByRole('button', { name: 'Create', exact: true }).click();
      await frame.getByText('Titles may be at most 5 characters long.').first().waitFor({ timeout: 15_000 });
      // The database refuses it too (the form's check is only the experience).
      expect(await portCall(page, 'data.create', 'book', { title: 'Dune Messiah' })).toEqual({
        error: 'TITLE_TOO_LONG',
      });
    });

    await step(page, 'blank-add-field', async () => {
      const runs = await liveRuns(page);
      await typeOver(page, '| Who wrote it. | ✓ | |\n', FORMAT_FIELD, '`author`', true);
      await nextLiveRun(page, runs);
      const { rows } = (await portCall(page, 'data.list', 'book')) as { rows: object[] };
      expect(rows).toEqual([expect.objectContaining({ title: BOOK, format: 'paperback' })]);
      // The form still open shows the new field, and keeps what was typed (rendered again, not reloaded).
      const frame = liveFrame(page);
      await frame.getByLabel('Format').waitFor();
      expect(await frame.getByLabel('Title').inputValue()).toBe('Dune Messiah');
      await openScreen(page, 'Books');
      await frame.getByRole('button', { name: 'Discard' }).click();
      // The existing book shows it on its page.
      await frame.getByRole('link', { name: BOOK, exact: true }).first().click();
      await frame.getByRole('heading', { level: 1, name: BOOK }).waitFor({ timeout: 15_000 });
      await frame.getByText('paperback').first().waitFor({ timeout: 15_000 });
    });

    await step(page, 'blank-refused-state', async () => {
      const started = (await portCall(page, 'data.transition', 'book', bookId, 'start')) as {
        status?: string;
      };
      expect(started.status).toBe('reading');
      const runs = await liveRuns(page);
      const src = await page.locator('#live').getAttribute('src');
      await deleteTexts(page, [`${READING_STATE}\n`, `${START}\n`, `${FINISH}\n`]);
      const refusal = page.locator('#live-refusal');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('reading');
      expect(await liveRuns(page)).toBe(runs);
      expect(await page.locator('#live').getAttribute('src')).toBe(src);
      const { rows } = (await portCall(page, 'data.list', 'book')) as { rows: object[] };
      expect(rows).toEqual([expect.objectContaining({ title: BOOK, status: 'reading' })]);
      await openScreen(page, 'Books');
      await liveFrame(page).getByText(BOOK, { exact: true }).first().waitFor();
    });

    await step(page, 'blank-role', async () => {
      await page.getByRole('tab', { name: 'Permissions' }).click();
      expect(await matrixCell(page, 'Reader', 'Book', 'Delete')).toBe('never');
      expect(await matrixCell(page, 'Host', 'Book', 'Delete')).toBe('always');
      // As the matrix says: the reader who suggested the book may not delete it, the host may.
      expect(await portCall(page, 'data.delete', 'book', bookId)).toEqual({ error: expect.any(String) });
      await page.getByRole('tab', { name: 'Live app' }).click();
      await signInAs(page, 'Demo Host (host)');
      expect(await portCall(page, 'data.delete', 'book', bookId)).toBeUndefined();
      const { rows } = (await portCall(page, 'data.list', 'book')) as { rows: object[] };
      expect(rows).toEqual([]);
    });

    console.log(`studio (blank): live ${JSON.stringify(await liveTimes(page))} ms`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
