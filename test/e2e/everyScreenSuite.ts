import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { resolve } from '../../src/model/resolve.ts';
import { setLocale } from '../../src/runtime/locale.ts';
import { routeTable } from '../../src/runtime/routeTable.ts';
import { loadUiCatalogue, ui } from '../../src/runtime/uiText.ts';
import { localizeSpec } from '../../src/spec/localizeSpec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import {
  type E2E,
  e2eAvailable,
  go,
  newPage,
  openApp,
  ownerSql,
  seriousAxeViolations,
  shoot,
  signInAsDemo,
  startE2E,
  switchDemo,
  viaHook,
} from './harness.ts';

/**
 * Rows every role can open a detail screen of: made through the backend as the users who would
 * make them, so the rules decide who sees what. Returns detail paths by role.
 */
type Fixture = (page: Page, spec: AppSpec) => Promise<Record<string, string[]>>;

const okId = (r: { ok: unknown } | { error: string }): string => {
  if (!('ok' in r)) throw new Error(`fixture refused: ${r.error}`);
  return String((r.ok as { id: string }).id);
};
const personId = async (page: Page, email: string) =>
  String((await ownerSql(page, 'select id from public.person where email = $1', [email]))[0]?.id);

const fixtures: Record<string, Fixture> = {
  helpdesk: async (page) => {
    // Signed in as the customer (the first demo role): one ticket with a comment.
    const ticket = okId(
      await viaHook(page, 'data', 'create', 'ticket', {
        title: 'Screen check ticket',
        description: 'A ticket that exists so every role can open a detail screen.',
      }),
    );
    await viaHook(page, 'data', 'create', 'comment', { ticket, body: 'A first message.' });
    const customer = await personId(page, 'customer@demo.test');
    const t = `/tickets/${ticket}`;
    return { customer: [t, `/people/${customer}`], agent: [t, `/people/${customer}`], admin: [t] };
  },
  expenses: async (page) => {
    await ownerSql(
      page,
      `update public.person set manager = (select id from public.person where email = 'manager@demo.test')
        where email = 'employee@demo.test'`,
    );
    // Signed in as the employee: a submitted claim with one line.
    const claim = okId(await viaHook(page, 'data', 'create', 'claim', { title: 'Screen check claim' }));
    const line = okId(
      await viaHook(page, 'data', 'create', 'line', {
        claim,
        date: new Date().toISOString().slice(0, 10),
        category: 'meals',
        description: 'Sandwich',
        amount: 9.5,
        currency: 'EUR',
      }),
    );
    okId(await viaHook(page, 'data', 'transition', 'claim', claim, 'submit'));
    const c = `/claims/${claim}`;
    const employee = await personId(page, 'employee@demo.test');
    return {
      employee: [c, `/lines/${line}`, `/people/${employee}`],
      manager: [c, `/lines/${line}`],
      finance: [c],
      admin: [c, `/people/${employee}`],
    };
  },
  tasks: async (page) => {
    // Signed in as the member (the first demo account), with no demo rows (`?memory`): they found
    // an organisation, make themselves its owner and fill it with one of everything.
    const member = await personId(page, 'member@demo.test');
    const today = new Date().toISOString().slice(0, 10);
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const organisation = okId(
      await viaHook(page, 'data', 'create', 'organisation', { name: 'Screen check organisation' }),
    );
    okId(
      await viaHook(page, 'data', 'create', 'membership', { organisation, person: member, role: 'owner' }),
    );
    okId(
      await viaHook(page, 'data', 'create', 'rate', {
        organisation,
        person: member,
        hourlyRate: 80,
      }),
    );
    const project = okId(
      await viaHook(page, 'data', 'create', 'project', {
        organisation,
        name: 'Screen check',
        code: 'SCR',
        lead: member,
      }),
    );
    const task = okId(
      await viaHook(page, 'data', 'create', 'task', {
        project,
        title: 'Screen check task',
        assignee: member,
        dueDate: inAWeek,
      }),
    );
    const entry = okId(
      await viaHook(page, 'data', 'create', 'timeEntry', {
        task,
        date: today,
        hours: 1.5,
        note: 'Screen check',
      }),
    );
    const o = `/organisations/${organisation}`;
    return {
      member: [`/tasks/${task}`, `/projects/${project}`, o, `/time/${entry}`, `/people/${member}`],
      admin: [o, `/people/${member}`],
    };
  },
  // The blank template filled in (test/e2e/fillBlankTemplate.ts): the reader suggests a book.
  'reading-list': async (page) => {
    const book = okId(
      await viaHook(page, 'data', 'create', 'book', { title: 'Kindred', author: 'Octavia E. Butler' }),
    );
    return { reader: [`/books/${book}`] };
  },
};

/**
 * Every screen of each reference app, for each demo role: it renders (its heading, no page
 * error) and axe-core finds no serious or critical violation. A failing screen's screenshot is
 * kept in test-results/ (the CI artifact); all findings are reported together.
 */
export function everyScreenSuite(
  /** A reference app, or the folder of `blankTemplateApp()` (harness.ts). */
  app: string,
  /** The browser's language (`de-DE`): the app then speaks German, its longer words included. */
  options: { locale?: 'de-DE' } = {},
): void {
  const lang = options.locale ? 'de' : 'en';
  describe.skipIf(!e2eAvailable)(
    `${app}: every screen${options.locale ? ` in ${options.locale}` : ''}`,
    () => {
      let e2e: E2E;
      let spec: AppSpec;
      let page: Page;
      let errors: string[];
      const name = app.split('/').pop() ?? app;
      // Nothing may stick out sideways at phone width (a long German word, the language button).
      const overflow = () =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

      beforeAll(async () => {
        e2e = await startE2E(app);
        // What the person reads: the spec's texts and the UI's in the browser's language.
        // The test's own `ui()` reads the language the page speaks (its catalogue is loaded on demand).
        await loadUiCatalogue(lang);
        setLocale(lang);
        spec = localizeSpec(e2e.spec, lang);
        const target = options.locale
          ? await e2e.browser.newContext({ locale: options.locale, viewport: { width: 1280, height: 900 } })
          : e2e.browser;
        ({ page, errors } = await newPage(target));
      }, 180_000);

      afterAll(async () => {
        setLocale('en');
        await e2e?.close();
      });

      it('renders each screen for each demo role with no serious accessibility violation', async () => {
        const findings: string[] = [];
        let checked = 0;
        // Each screen in light and dark (the operating system's preference, which the app follows)
        // at desktop and phone width; back to light at 1280 px for the next navigation.
        const variants = [
          { scheme: 'light', width: 1280 },
          { scheme: 'dark', width: 1280 },
          { scheme: 'dark', width: 360 },
          { scheme: 'light', width: 360 },
        ] as const;
        const check = async (label: string) => {
          for (const v of variants) {
            checked++;
            // The pointer leaves the page first: after the resize to 360 px a button could land
            // under it (the last click's place) and open its tooltip while axe reads the page, the
            // tooltip half-way through its fade-in (2.1:1 on a loaded machine, a detail screen's
            // "Delete"). A tooltip shown on hover is not the screen's resting state.
            await page.mouse.move(-1, -1);
            await page.emulateMedia({ colorScheme: v.scheme });
            await page.setViewportSize({ width: v.width, height: 900 });
            await page.waitForTimeout(60);
            // A scheme switch starts colour transitions; axe must read the settled colours, not a
            // button half-way from dark to light (a loaded CI machine caught one at 3.9:1).
            await page
              .waitForFunction(
                () =>
                  document
                    .getAnimations()
                    .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
                undefined,
                { timeout: 3_000 },
              )
              .catch(() => undefined);
            if (v.width === 360) {
              // The app's name in the header stays on one line beside the header's buttons.
              const nameLines = await page.evaluate(() => {
                const a = document.querySelector<HTMLElement>('header a[href="/"]');
                return a ? a.offsetHeight / Number.parseFloat(getComputedStyle(a).lineHeight) : 1;
              });
              if (nameLines > 1.5)
                findings.push(`${lang}-${label}-${v.scheme}-360: the app's name breaks in two`);
              // Right after the resize from 1280 px the layout may still be settling: only a width
              // that stays too wide after a moment is a finding.
              let wider = await overflow();
              if (wider > 0) {
                await page.waitForTimeout(800);
                wider = await overflow();
              }
              if (wider > 0) {
                await shoot(page, `overflow-${name}-${lang}-${label}-${v.scheme}`);
                findings.push(
                  `${lang}-${label}-${v.scheme}-360: the page is ${wider} px wider than the screen`,
                );
              }
            }
            const serious = await seriousAxeViolations(page);
            if (serious.length > 0) {
              const at = `${lang}-${label}-${v.scheme}-${v.width}`;
              await shoot(page, `axe-${name}-${at}`);
              findings.push(`${at}: ${JSON.stringify(serious, null, 1)}`);
            }
          }
          await page.emulateMedia({ colorScheme: 'light' });
          await page.setViewportSize({ width: 1280, height: 900 });
        };
        await openApp(page, e2e.url);
        await check('sign-in');
        await page.getByRole('button', { name: ui('signUp') }).click();
        await page.getByRole('heading', { level: 1, name: ui('signUpTitle') }).waitFor();
        await check('sign-up');
        await page.getByRole('button', { name: ui('signIn'), exact: true }).click();

        const table = routeTable(resolve(spec));
        // An account made to hold a role through a relationship holds it through the demo rows,
        // which this suite runs without (`?memory`): one account per granted role visits.
        const accounts = demoAccounts(spec).filter((a) => a.holds === undefined);
        let details: Record<string, string[]> = {};
        for (const [i, account] of accounts.entries()) {
          const roleLabel = spec.roles.roles[account.role]?.label ?? account.role;
          try {
            if (i === 0) {
              await signInAsDemo(page, roleLabel);
              details = (await fixtures[name]?.(page, spec)) ?? {};
            } else await switchDemo(page, roleLabel);
            for (const route of table.navFor([account.role])) {
              await page.getByRole('link', { name: route.title, exact: true }).first().click();
              await page.getByRole('heading', { level: 1, name: route.title }).waitFor({ timeout: 20_000 });
              // Lists and dashboards fill in after the heading.
              await page.waitForLoadState('networkidle');
              await page.waitForTimeout(150);
              await check(`${account.role}-${route.name}`);
            }
            for (const path of details[account.role] ?? []) {
              await go(page, path);
              await page.getByRole('heading', { level: 1 }).first().waitFor();
              await expect(
                page.getByRole('heading', { level: 1, name: ui('notFoundTitle') }).count(),
                `${account.role} ${path}`,
              ).resolves.toBe(0);
              await page.waitForTimeout(150);
              await check(`${account.role}-${path.split('/')[1]}-detail`);
            }
          } catch (e) {
            await shoot(page, `failure-${name}-${account.role}`);
            throw e;
          }
        }
        // The not-found page, too.
        await go(page, '/no-such-page');
        await page.getByRole('heading', { level: 1, name: ui('notFoundTitle') }).waitFor();
        await check('not-found');
        expect(errors).toEqual([]);
        expect(checked, 'screens checked').toBeGreaterThan(variants.length * table.routes.length);
        console.log(`axe on ${name} (${lang}): ${checked} screen variants (light and dark, 1280 and 360 px)`);
        expect(findings, findings.join('\n\n')).toEqual([]);
      }, 600_000);
    },
  );
}
