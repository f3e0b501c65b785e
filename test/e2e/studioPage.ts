/**
 * Driving the built studio in the end-to-end tests (studio*.e2e.test.ts): the editor through its
 * own API and the keyboard, the live app's frame and its backend port.
 */
import type { Frame, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

type StudioWindow = {
  __studioView: {
    state: { doc: { toString(): string; length: number } };
    dispatch(t: unknown): void;
    focus(): void;
  };
  __studioTimings: { check: number[]; live: number[] };
};

/**
 * Selects `find` (its first occurrence after `after`; with `collapse`, only the place right after it)
 * and types `text` over the selection key by key, or deletes it when `text` is empty.
 */
export async function typeOver(
  page: Page,
  find: string,
  text: string,
  after = '',
  collapse = false,
): Promise<void> {
  const found = await page.evaluate(
    ([f, a, c]) => {
      const view = (window as unknown as StudioWindow).__studioView;
      const doc = view.state.doc.toString();
      const from = doc.indexOf(f as string, doc.indexOf(a as string));
      if (from < 0) return false;
      const to = from + (f as string).length;
      view.dispatch({ selection: { anchor: c ? to : from, head: to }, scrollIntoView: true });
      view.focus();
      return true;
    },
    [find, after, collapse] as const,
  );
  if (!found) throw new Error(`not in the document: ${find}`);
  if (text === '') await page.keyboard.press('Backspace');
  else await page.keyboard.type(text, { delay: 10 });
}

/** Replaces the whole document as a paste would (one edit). */
export async function pasteDocument(page: Page, text: string): Promise<void> {
  await page.evaluate(() => {
    const view = (window as unknown as StudioWindow).__studioView;
    view.dispatch({ selection: { anchor: 0, head: view.state.doc.length } });
    view.focus();
  });
  await page.keyboard.insertText(text);
}

export const docText = (page: Page) =>
  page.evaluate(() => (window as unknown as StudioWindow).__studioView.state.doc.toString());

/** How many times the live app has taken a version of the document. */
export const liveRuns = (page: Page) =>
  page.evaluate(() => (window as unknown as StudioWindow).__studioTimings.live.length);

export const liveTimes = (page: Page) =>
  page.evaluate(() => (window as unknown as StudioWindow).__studioTimings.live.map(Math.round));

/** Waits until the live app has taken one more version than `runs`. */
export async function nextLiveRun(page: Page, runs: number): Promise<void> {
  await page.waitForFunction(
    (n) => (window as unknown as StudioWindow).__studioTimings.live.length > n,
    runs,
    { timeout: 60_000, polling: 50 },
  );
}

/** The live app's frame (the page's only one; its address follows the app's screens). */
export function liveFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.parentFrame() === page.mainFrame());
  if (!frame) throw new Error('no live app frame');
  return frame;
}

/** Opens a screen from the live app's navigation (behind its burger: the pane is phone-narrow). */
export async function openScreen(page: Page, label: string): Promise<void> {
  const frame = liveFrame(page);
  const burger = frame.getByRole('button', { name: 'Toggle navigation' });
  if (await burger.isVisible()) await burger.click();
  await frame
    .getByRole('navigation', { name: 'Navigation' })
    .getByRole('link', { name: label, exact: true })
    .click();
}

/**
 * One call of the live app's backend port, as the person signed in there: `data.list`… The
 * answer's value, or `{ error: code }`.
 */
export function portCall(page: Page, path: string, ...args: unknown[]): Promise<unknown> {
  return liveFrame(page).evaluate(
    async ([p, a]) => {
      const { backend } = (window as unknown as { __ninefoldPreview: { backend: Record<string, object> } })
        .__ninefoldPreview;
      const [port, method] = (p as string).split('.') as [string, string];
      const target = backend[port] as Record<string, (...x: unknown[]) => Promise<unknown>>;
      try {
        return await (target[method] as (...x: unknown[]) => Promise<unknown>).apply(target, a as unknown[]);
      } catch (e) {
        return { error: (e as { code?: string }).code ?? String(e) };
      }
    },
    [path, args] as const,
  );
}

/** Signs in as the demo account of that label in the studio's switcher. */
export async function signInAs(page: Page, label: string): Promise<void> {
  await page.getByLabel('Signed in as').selectOption({ label });
  await page.locator('#status', { hasText: `Signed in as ${label.replace(/ \(.*\)$/, '')}` }).waitFor();
}

/** The permission matrix's cell for a role (label), an entity (label) and an operation (Read…). */
export async function matrixCell(
  page: Page,
  role: string,
  entity: string,
  operation: string,
): Promise<string> {
  const columns = ['Read', 'Create', 'Update', 'Delete'];
  const row = page
    .locator('#permissions tr', { has: page.locator('th', { hasText: new RegExp(`^${role}$`) }) })
    .filter({ has: page.locator('td', { hasText: new RegExp(`^${entity}$`) }) });
  return (
    (await row
      .locator('td')
      .nth(1 + columns.indexOf(operation))
      .textContent()) ?? ''
  );
}

/** Inserts each text on the line after the first line holding its `after`, all in one edit. */
export async function insertLines(page: Page, inserts: [after: string, text: string][]): Promise<void> {
  await page.evaluate((list) => {
    const view = (window as unknown as StudioWindow).__studioView;
    const doc = view.state.doc.toString();
    const changes = list.map(([after, text]) => {
      const at = doc.indexOf(after);
      if (at < 0) throw new Error(`not in the document: ${after}`);
      return { from: doc.indexOf('\n', at) + 1, insert: text };
    });
    view.dispatch({ changes });
  }, inserts);
}

/** Deletes each of these texts (their first occurrence), all in one edit. */
export async function deleteTexts(page: Page, texts: string[]): Promise<void> {
  await page.evaluate((list) => {
    const view = (window as unknown as StudioWindow).__studioView;
    const doc = view.state.doc.toString();
    const changes = list
      .map((t) => {
        const from = doc.indexOf(t);
        if (from < 0) throw new Error(`not in the document: ${t}`);
        return { from, to: from + t.length };
      })
      .sort((a, b) => a.from - b.from);
    view.dispatch({ changes });
  }, texts);
}

/**
 * Waits until the editor's first error mark covers `word`: under load the checker may first mark a
 * word typed only in part ('sug' of 'sugestedBy'). Returns the marks.
 */
export async function errorMarkOver(page: Page, word: string): Promise<Locator> {
  const marked = page.locator('.cm-lintRange-error');
  await expect
    .poll(
      () =>
        marked
          .first()
          .textContent({ timeout: 1_000 })
          .catch(() => null),
      { timeout: 20_000 },
    )
    .toBe(word);
  return marked;
}
