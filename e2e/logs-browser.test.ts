// The Logs tab in browser mode against real components: the demo node's simulated kubelet writing CRI log
// files, the app core reading them, the browser-mode server and the built renderer in Chromium.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInspector, type Inspector } from '../app/inspector/inspector';
import type { UiServer } from '../app/ui-server/ui-server';
import { openUiInChromium } from './testing/ui-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');
let inspector: Inspector;
let server: UiServer;
let browser: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'ns-e2e-logs-'));
  inspector = await createInspector({ mode: 'browser', stateDir: join(work, 'state'), demo: true, defaultExportDir: work });
  ({ server, browser, page } = await openUiInChromium(inspector, join(work, 'chromium')));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inspector?.close();
});

describe('Logs tab', () => {
  it("opens with l on a selected pod, shows its log lines, and highlights a searched word", async () => {
    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.waitFor();
    await grid.getByRole('row').filter({ hasText: 'Running' }).first().click();
    await page.keyboard.press('l');
    const detail = page.locator('section.pod-detail');
    await expect.poll(() => detail.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
    const log = detail.getByRole('region', { name: 'Container log' });
    const first = log.locator('.log-line').first();
    await first.waitFor();
    // A word of a line the node wrote, searched for: every match is marked, and the count says how many.
    const word = /[A-Za-z]{4,}/.exec((await first.textContent()) ?? '')?.[0];
    expect(word, 'a word in the first log line').toBeDefined();
    await detail.getByLabel('Find in log').fill(word!);
    await expect.poll(() => detail.locator('.match-count').textContent()).toMatch(/^1\/\d+$/);
    const marked = log.locator('mark').first();
    await marked.waitFor();
    expect((await marked.textContent())!.toLowerCase()).toBe(word!.toLowerCase());
    await page.screenshot({ path: join(artifacts, 'logs-tab.png') });
  }, 60_000);
});
