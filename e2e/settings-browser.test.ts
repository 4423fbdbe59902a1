// The Settings dialog as an operator uses it (issue 26), in browser mode: the app core, the browser-mode
// server and the built renderer in Chromium. The app starts with a budget given for this run (as `nodescope
// ui --memory-budget` gives it); the dialog opens on ',' and from the : palette, says what a wrong size is,
// and saves a good one, which a restart of the app finds.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../app/host/host';
import { settingsPath } from '../app/host/settings-store';
import { openUiInChromium, type UiInChromium } from './testing/ui-in-chromium';

const MIB = 1024 ** 2;
const artifacts = resolve(import.meta.dirname, 'artifacts');
const opened: { inspector: Host; ui: UiInChromium }[] = [];
afterEach(async () => {
  for (const { inspector, ui } of opened.splice(0)) {
    await ui.browser.close();
    await ui.server.close();
    await inspector.close();
  }
});

async function openApp(stateDir: string, run: number, memoryBudget?: number): Promise<Page> {
  const inspector = await createHost({ mode: 'browser', stateDir, demo: false, ...(memoryBudget ? { settings: { memoryBudget } } : {}) });
  const ui = await openUiInChromium(inspector, join(stateDir, `chromium-${run}`));
  opened.push({ inspector, ui });
  return ui.page;
}

describe('the Settings dialog', () => {
  it('shows the budget in use, refuses a wrong size saying why, and saves a good one for the next start', { timeout: 180_000 }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'ns-e2e-settings-'));
    let page = await openApp(stateDir, 1, 300 * MIB);

    await page.locator('body').press(',');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const budget = dialog.getByRole('textbox', { name: 'Memory budget' });
    await expect.poll(() => budget.inputValue()).toBe('300 MiB');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Memory budget');
    await expect.poll(() => dialog.textContent()).toMatch(/Held now: about \d/);

    await budget.fill('lots');
    await budget.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: '"lots" is not a size: write a number and a unit, e.g. 1 GiB' }).waitFor();
    await budget.fill('12M');
    await budget.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: /^The memory budget is at least 64 MiB/ }).waitFor();
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'settings-dialog.png') });

    await budget.fill('2 GiB');
    await budget.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Settings saved: memory budget 2 GiB, rows only above 200 nodes.' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    // Only what was typed in is saved: the other settings stay defaults, free to follow a later Nodescope's.
    expect(JSON.parse(readFileSync(settingsPath(stateDir), 'utf8'))).toEqual({ version: 1, memoryBudget: 2 * 1024 * MIB });

    // A restart without a budget for the run: the saved one, in the dialog the palette opens.
    for (const { inspector, ui } of opened.splice(0)) {
      await ui.browser.close();
      await ui.server.close();
      await inspector.close();
    }
    page = await openApp(stateDir, 2);
    await page.locator('body').press(':');
    await page.keyboard.type('Settings');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).getByRole('textbox', { name: 'Memory budget' }).inputValue()).toBe('2 GiB');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });
  });
});
