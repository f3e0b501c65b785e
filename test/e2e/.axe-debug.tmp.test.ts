import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { it } from 'vitest';
import { serveDist } from './serveDist.ts';
it('debug', async () => {
  const { url, server } = await serveDist(resolve('test-results/dist-helpdesk'));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${url}/?memory`);
  const dump = async (name: string) => {
    await page.addScriptTag({ content: readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8') });
    const v = await page.evaluate(async () => {
      const w = window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[] }> } };
      return (await w.axe.run()).violations.filter((x) => x.impact === 'serious' || x.impact === 'critical').map((x) => ({ id: x.id, nodes: x.nodes.map((n) => `${n.target.join(' ')} :: ${n.failureSummary.slice(0, 160)}`) }));
    });
    console.log(name, JSON.stringify(v, null, 1));
  };
  await page.getByRole('button', { name: /^Customer/ }).waitFor({ timeout: 60000 });
  await dump('signin');
  await page.getByRole('button', { name: /^Agent/ }).click();
  await page.getByRole('link', { name: 'Tickets' }).first().waitFor();
  await page.waitForTimeout(1500);
  await dump('dashboard');
  await page.screenshot({ path: 'test-results/agent-dashboard.png', fullPage: true });
  await page.getByRole('link', { name: 'Board' }).first().click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: 'test-results/agent-board.png', fullPage: true });
  await dump('board');
  await page.getByRole('link', { name: 'Tickets' }).first().click();
  await page.waitForTimeout(1500);
  await dump('tickets');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'test-results/agent-list-360.png', fullPage: true });
  await browser.close();
  server.close();
}, 120000);
