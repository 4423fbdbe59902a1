// The pod table's columns and saved views as an operator uses them (issue 25), in browser mode: a simulated
// kubelet on a local socket (Pods API: no CPU, memory or probes), the app core, the browser-mode server and
// the built renderer in Chromium. Hide a column, add one of a pod field, save a view; a reload and a restart
// of the app (a new port, so a new origin) find them as left.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { detachedCall } from '../app/contract';
import { createHost, type Host } from '../app/host/host';
import { startSimulatedKubelet, type SimulatedKubelet } from '../app/sim/kubelet-server';
import { openUiInChromium, type UiInChromium } from './testing/ui-in-chromium';

/** Screenshots to look at (git-ignored), at the window sizes operators use. */
const artifacts = resolve(import.meta.dirname, 'artifacts');
let kubelet: SimulatedKubelet;
let work: string;
const opened: { inspector: Host; ui: UiInChromium }[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'ns-e2e-columns-'));
  kubelet = await startSimulatedKubelet({ socketPath: join(work, 'kubelet.sock'), pods: 40, seed: 5, nodeName: 'node-a' });
}, 60_000);
afterEach(async () => {
  for (const { inspector, ui } of opened.splice(0)) {
    await ui.browser.close();
    await ui.server.close();
    await inspector.close();
  }
});
afterAll(async () => {
  await kubelet?.stop();
});

/** The app on the same state folder each time (as after a restart), in a fresh browser profile. */
async function openApp(run: number): Promise<Page> {
  const inspector = await createHost({ mode: 'browser', stateDir: join(work, 'state'), demo: false, defaultExportDir: work, nodes: [{ kind: 'unix', socketPath: join(work, 'kubelet.sock') }] });
  const ui = await openUiInChromium(inspector, join(work, `chromium-${run}`));
  opened.push({ inspector, ui });
  // Wide enough for every column: what is hidden is hidden by choice or for want of data, not of room.
  await ui.page.setViewportSize({ width: 1920, height: 1000 });
  await ui.page.locator('[role=row][data-uid]').first().waitFor({ timeout: 60_000 });
  return ui.page;
}

const headers = (page: Page) => page.locator('.pods-head [role=columnheader]').evaluateAll((cs) => cs.map((c) => c.querySelector('.sort-label')?.textContent ?? ''));
const cells = (page: Page, path: string) =>
  page.locator('.pods-head [role=columnheader]').evaluateAll(
    (cs, p) => {
      const index = cs.findIndex((c) => c.getAttribute('title') === p);
      return [...document.querySelectorAll('[role=row][data-uid]')].map((r) => {
        const cell = r.children[index] as HTMLElement | undefined;
        return { text: cell?.textContent ?? '', title: cell?.querySelector('[title]')?.getAttribute('title') ?? cell?.getAttribute('title') ?? '' };
      });
    },
    path,
  );

describe('the pod table’s columns and saved views', () => {
  it('hides a column, adds a column of any field, saves a view, and finds them all after a reload and a restart', { timeout: 180_000 }, async () => {
    let page = await openApp(1);
    // A Pods API node has no CPU, memory or probes anywhere: those columns are not shown by default.
    await expect.poll(() => headers(page)).toContain('Pod IP');
    expect(await headers(page)).not.toContain('CPU');
    expect(await headers(page)).not.toContain('Probes');

    // v opens the chooser ready for the keyboard: on the first column's box, not on its ✕.
    await page.locator('.pods-grid').focus();
    await page.keyboard.press('v');
    const chooser = page.getByRole('dialog', { name: 'Columns and views' });
    await chooser.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('label')?.textContent)).toBe('Namespace');
    await chooser.getByRole('checkbox', { name: 'Pod IP' }).uncheck();
    await chooser.getByRole('combobox', { name: 'Add a column of a pod field' }).fill('spec.nosuchfield');
    await chooser.getByRole('combobox', { name: 'Add a column of a pod field' }).press('Enter');
    await chooser.getByRole('alert').filter({ hasText: 'No pod field is called "spec.nosuchfield"' }).waitFor();
    await chooser.getByRole('combobox', { name: 'Add a column of a pod field' }).fill('spec.restartPolicy');
    await chooser.getByRole('combobox', { name: 'Add a column of a pod field' }).press('Enter');
    await chooser.getByRole('button', { name: 'Move restartPolicy up' }).click();
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(artifacts, `columns-chooser-${size.width}.png`) });
    }
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });

    const expected = ['Namespace', 'Name', 'Status', 'Ready', 'Restarts', 'Age', 'Node', 'Owner', 'restartPolicy', 'Static'];
    await expect.poll(() => headers(page)).toEqual(expected);
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: join(artifacts, 'columns-table-1024.png') });
    await page.setViewportSize({ width: 1920, height: 1000 });
    // The field's values come from each pod; every pod of the simulator has a restart policy. Polled as one
    // condition: the simulator keeps adding pods, and a new row reads '…' until its value arrives.
    const policies = async () => (await cells(page, 'spec.restartPolicy')).map((c) => c.text);
    await expect.poll(async () => (await policies()).filter((t) => !['Always', 'Never', 'OnFailure'].includes(t))).toEqual([]);
    expect((await policies()).length).toBeGreaterThan(0);

    // Its header sorts like any other: by the values on every pod of the node (not only those on screen), as text.
    const sortedBy = (descending: boolean) => async () => {
      const texts = await policies();
      const sorted = [...texts].sort((a, b) => (descending ? b.localeCompare(a) : a.localeCompare(b)));
      return texts.length > 0 && texts.every((t) => ['Always', 'Never', 'OnFailure'].includes(t)) && texts.join() === sorted.join();
    };
    const policyHeader = page.getByRole('columnheader', { name: 'Sort by spec.restartPolicy' });
    await page.getByRole('button', { name: 'Sort by spec.restartPolicy' }).click();
    await expect.poll(() => policyHeader.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(sortedBy(false)).toBe(true);
    await page.getByRole('button', { name: 'Sort by spec.restartPolicy' }).click();
    await expect.poll(() => policyHeader.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(sortedBy(true)).toBe(true);
    // A view keeps that sort.
    await page.getByRole('button', { name: /^Columns/ }).click();
    await chooser.getByRole('textbox', { name: /as a view/ }).fill('By restart policy');
    await chooser.getByRole('button', { name: 'Save view' }).click();
    await chooser.getByRole('button', { name: 'By restart policy', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });

    // A view: the filter, the sort and these columns under a name.
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('ns:kube-system');
    await page.getByRole('button', { name: 'Sort by Restarts' }).click();
    await page.getByRole('button', { name: /^Columns/ }).click();
    await chooser.getByRole('textbox', { name: /as a view/ }).fill('System restarts');
    await chooser.getByRole('button', { name: 'Save view' }).click();
    await chooser.getByRole('button', { name: 'System restarts', exact: true }).waitFor();
    await page.keyboard.press('Escape');

    await page.reload();
    await page.locator('[role=row][data-uid]').first().waitFor();
    await expect.poll(() => headers(page)).toEqual(expected);

    // With a mask that leaves the field out, its cells say so (with the mask on hover), never an empty value.
    const [inspector] = opened.map((o) => o.inspector);
    const nodeId = (await inspector!.handlers['nodes.list']({}, detachedCall()))[0]!.id;
    await inspector!.handlers['nodes.setMask']({ nodeId, mask: 'metadata,status' }, detachedCall());
    await expect.poll(async () => (await cells(page, 'spec.restartPolicy'))[0]?.title ?? '').toMatch(/^Not selected: left out by the mask/);

    // A filter that reads a field the mask left out says which, and one click adds it to the node's mask.
    await inspector!.handlers['nodes.setMask']({ nodeId, mask: 'metadata.name,metadata.namespace,metadata.uid' }, detachedCall());
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('owner:DaemonSet');
    const why = "owner:daemonset needs metadata.ownerReferences, which this node's field mask leaves out: no pod can match it.";
    await page.getByRole('alert').filter({ hasText: why }).waitFor();
    await expect.poll(() => page.locator('.pods-scroll .empty').textContent()).toBe(why);
    await page.getByRole('button', { name: 'Add metadata.ownerReferences to the mask' }).click();
    await expect.poll(async () => (await inspector!.handlers['nodes.list']({}, detachedCall()))[0]!.mask).toBe('metadata.name,metadata.namespace,metadata.uid,metadata.ownerReferences');
    await expect.poll(() => page.locator('[role=row][data-uid]').count()).toBeGreaterThan(0);
    expect(await page.getByRole('alert').filter({ hasText: why }).count()).toBe(0);
    await inspector!.handlers['nodes.setMask']({ nodeId, mask: '' }, detachedCall());
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('');

    // A restart: another port, another origin, a new browser profile; the app core remembers.
    for (const o of opened.splice(0)) {
      await o.ui.browser.close();
      await o.ui.server.close();
      await o.inspector.close();
    }
    page = await openApp(2);
    await expect.poll(() => headers(page)).toEqual(expected);
    expect(await page.getByRole('searchbox', { name: 'Filter pods' }).inputValue()).toBe('');
    await page.locator('.pods-grid').focus();
    await page.keyboard.press(':');
    await page.keyboard.type('system restarts');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('searchbox', { name: 'Filter pods' }).inputValue()).toBe('ns:kube-system');
    expect(await page.getByRole('columnheader', { name: 'Sort by Restarts' }).getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => page.locator('[role=row][data-uid] .c-ns').allTextContents()).toSatisfy((ns: string[]) => ns.length > 0 && ns.every((n) => n === 'kube-system'));

    // The view sorted by a field column restores that sort after the restart.
    await page.locator('.pods-grid').focus();
    await page.keyboard.press(':');
    await page.keyboard.type('by restart policy');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Sort by spec.restartPolicy' }).getAttribute('aria-sort')).toBe('descending');
    await expect.poll(sortedBy(true)).toBe(true);
  });
});
