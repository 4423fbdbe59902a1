// Crossing "Keep rows only above" while nodes are open (docs/app.md, "Rows-only nodes"), in browser mode: two
// simulated kubelets on local sockets, the built renderer in Chromium, and a second window of the same app.
// The setting changed in that window: the first window's open Settings dialog follows it (but for what the
// user typed there), and its tags, sidebar and open pod follow the nodes switching in place, and back.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletsInChromium } from './testing/kubelets-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');
const NODES = ['switch-a', 'switch-b'];

let ui: Awaited<ReturnType<typeof kubeletsInChromium>> | undefined;
let page: Page;
let other: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  ui = await kubeletsInChromium(NODES, { pods: 12, seed: 41, settings: { rowsOnlyAbove: 2 } });
  page = ui.page;
  other = await ui.browser.newPage();
  other.setDefaultTimeout(15_000);
  await other.goto(ui.server.url);
}, 180_000);

afterAll(async () => {
  await ui?.close();
});

/** Sets "Keep rows only above" (and the budget, when given) in the other window's Settings dialog. */
async function setInOtherWindow(rowsOnlyAbove: number, budget?: string): Promise<void> {
  await other.locator('body').press(',');
  const dialog = other.getByRole('dialog', { name: 'Settings' });
  const field = dialog.getByRole('textbox', { name: 'Keep rows only above' });
  await expect.poll(() => field.isEnabled()).toBe(true);
  await field.fill(String(rowsOnlyAbove));
  if (budget) await dialog.getByRole('textbox', { name: 'Memory budget' }).fill(budget);
  await field.press('Enter');
  await dialog.waitFor({ state: 'detached' });
}

describe('crossing "Keep rows only above" with the nodes open', () => {
  it('the open Settings dialog follows a change made in another window, keeping what the user typed', async () => {
    await page.locator('body').press(',');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const rowsOnly = dialog.getByRole('textbox', { name: 'Keep rows only above' });
    const budget = dialog.getByRole('textbox', { name: 'Memory budget' });
    await expect.poll(() => rowsOnly.inputValue()).toBe('2');
    const budgetShown = await budget.inputValue();
    await budget.fill('700 MiB');

    await setInOtherWindow(3, '512 MiB');
    // The field not typed in follows; the one typed in keeps the user's text and says what changed.
    await expect.poll(() => rowsOnly.inputValue()).toBe('3');
    expect(await budget.inputValue()).toBe('700 MiB');
    await dialog.getByRole('status').filter({ hasText: 'Changed in another window to 512 MiB since you started typing; Save sets yours.' }).waitFor();
    expect(budgetShown).not.toBe('512 MiB');
    await page.screenshot({ path: join(artifacts, 'settings-followed.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Opened again, it shows what is set now: nothing typed is kept.
    await page.locator('body').press(',');
    await expect.poll(() => budget.inputValue()).toBe('512 MiB');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }, 120_000);

  it("the nodes' tags, the sidebar and the open pod follow the nodes switching to rows only and back, the selection kept", async () => {
    const sidebar = page.getByRole('navigation', { name: 'Nodes' });
    await sidebar.getByText(/switch-a\.sock/).click();
    const heading = page.locator('.node-heading');
    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.getByRole('row').nth(3).click();
    await page.keyboard.press('Enter');
    const detail = page.locator('section.pod-detail');
    await detail.waitFor();
    const pod = await detail.getAttribute('aria-label');
    const name = pod!.split('/').at(-1)!;
    // The row selected is the pod open (the columns shown may move as the detail's width changes).
    const selected = grid.locator('[role="row"][aria-selected="true"]');
    const stillSelected = async () => expect(await selected.textContent()).toContain(name);
    await stillSelected();
    const readWhenOpened = detail.getByRole('note').getByText(/Read from the node when opened, .*: this node keeps rows only/);
    expect(await heading.getByText('rows only', { exact: true }).count()).toBe(0);
    expect(await readWhenOpened.count()).toBe(0);
    await detail.getByRole('tab', { name: 'History' }).click();
    await detail.getByText(/listed/).first().waitFor();

    await setInOtherWindow(1);
    // News of what the app did as set, not shown as an error.
    const switched = page.getByRole('status').filter({ hasText: /^2 nodes now keep rows only: 2 nodes are open, over 1/ });
    await switched.waitFor();
    expect(await switched.getAttribute('class')).toBe('banner notice');
    await heading.getByText('rows only', { exact: true }).waitFor();
    await sidebar.getByText('2 nodes keep rows only: a pod you open is read from its node then.').waitFor();
    // The same pod stays open and selected; its history is said not kept rather than shown as it was.
    await detail.getByText(/Pod history is not kept for .*switch-a\.sock: it keeps rows only/).waitFor();
    expect(await detail.getAttribute('aria-label')).toBe(pod);
    await stillSelected();
    await detail.getByRole('tab', { name: 'Summary' }).click();
    await readWhenOpened.waitFor();
    await page.screenshot({ path: join(artifacts, 'rows-only-switched.png') });

    await setInOtherWindow(2);
    await page.getByRole('status').filter({ hasText: /^2 nodes keep whole pods again: 2 nodes are open, not over 2/ }).waitFor();
    await expect.poll(() => heading.getByText('rows only', { exact: true }).count()).toBe(0);
    await expect.poll(() => sidebar.getByText(/nodes? keeps? rows only/).count()).toBe(0);
    await expect.poll(() => readWhenOpened.count()).toBe(0);
    expect(await detail.getAttribute('aria-label')).toBe(pod);
    await stillSelected();
    // Its history starts as its pods were read whole again.
    await detail.getByRole('tab', { name: 'History' }).click();
    await detail.getByText(/listed/).first().waitFor();
  }, 120_000);

  it('the fleet view of both nodes says how many keep rows only, and follows them back', async () => {
    for (const node of NODES) await page.getByRole('checkbox', { name: new RegExp(`^Include .*${node}\\.sock$`) }).check();
    await page.getByRole('heading', { name: '2 sources' }).waitFor();
    const heading = page.locator('.node-heading');
    await setInOtherWindow(1);
    await heading.getByText('2 rows only', { exact: true }).waitFor();
    await setInOtherWindow(2);
    await expect.poll(() => heading.getByText(/rows only/).count()).toBe(0);
  }, 120_000);
});
