// The UI over several sources at the window sizes operators use (issue 25): three simulated kubelets on
// local sockets (unix: sources, read through the Pods API, so no CPU, memory or probes), the app core, the
// browser-mode server, the built renderer in Chromium at 1440×900 and 1024×768. Each row must say which
// node its pod is on, and nothing in the header may cover anything else; the table has one node's column
// chooser and saved views.
// Screenshots go to e2e/artifacts/ (git-ignored).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../app/host/host';
import { startSimulatedKubelet, type SimulatedKubelet } from '../app/sim/kubelet-server';
import type { UiServer } from '../app/ui-server/ui-server';
import { cutTabs, headerProblems, misalignedRows, overlaps } from './testing/layout-checks';
import { openUiInChromium } from './testing/ui-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');
const NODES = ['node-a', 'node-b', 'node-c'];
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];

let kubelets: SimulatedKubelet[] = [];
let inspector: Host;
let server: UiServer;
let browser: BrowserContext;
let page: Page;

const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });
const grid = () => page.getByRole('grid', { name: 'Pods' });

/** The column headers drawn (width above zero), by label. */
const shownHeaders = () =>
  page.locator('.pods-head [role=columnheader]').evaluateAll((cs) => cs.filter((c) => c.getBoundingClientRect().width > 0).map((c) => c.querySelector('.sort-label')?.textContent ?? ''));

/** The sorted column's header, and whether it is drawn. */
const sortedHeader = () =>
  page.locator('.pods-head [role=columnheader]').evaluateAll((cs) =>
    cs.filter((c) => c.getAttribute('aria-sort') !== 'none').map((c) => ({ label: c.querySelector('.sort-label')?.textContent ?? '', shown: c.getBoundingClientRect().width > 0 })),
  );

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'ns-e2e-fleet-layout-'));
  const sockets = NODES.map((nodeName) => join(work, `${nodeName}.sock`));
  kubelets = await Promise.all(NODES.map((nodeName, i) => startSimulatedKubelet({ socketPath: sockets[i]!, pods: 40, seed: 11 + i, nodeName })));
  inspector = await createHost({
    mode: 'browser',
    stateDir: join(work, 'state'),
    demo: false,
    defaultExportDir: work,
    nodes: sockets.map((socketPath) => ({ kind: 'unix' as const, socketPath })),
  });
  ({ server, browser, page } = await openUiInChromium(inspector, join(work, 'chromium')));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inspector?.close();
  await Promise.all(kubelets.map((k) => k.stop()));
});

describe('three sources at 1440×900 and 1024×768', () => {
  it('shows every pod with its node, the sort arrow on a column drawn, and a header where nothing covers anything', async () => {
    await page.getByRole('button', { name: 'all', exact: true }).click();
    await page.getByRole('heading', { name: '3 sources' }).waitFor();
    await page.getByLabel('Sources by state').getByText('3 live').waitFor({ timeout: 60_000 });
    const total = kubelets.reduce((n, k) => n + k.store.size, 0);
    await page.getByRole('tab', { name: `Pods (${total})` }).waitFor();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await expect.poll(shownHeaders).toContain('Node');
      const shown = await shownHeaders();
      // Pods API sources give no CPU, memory or probes: those columns go before any that has data.
      expect(shown).not.toContain('CPU');
      // Every row drawn names its source: a DaemonSet's pods are not rows that all look the same.
      const rows = await grid().locator('.pod-row').evaluateAll((rs) => rs.map((r) => r.querySelector<HTMLElement>('.c-node')?.getBoundingClientRect().width ? r.querySelector('.c-node')!.textContent : null));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((n) => !/node-[abc]\.sock$/.test(n ?? ''))).toEqual([]);
      expect(await sortedHeader()).toEqual([{ label: 'Node', shown: true }]);
      expect(await headerProblems(page)).toEqual([]);
      expect(await misalignedRows(page)).toEqual([]);
      await shot(`fleet-layout-${size.width}`);

      // A pod open beside the table leaves it narrow: Node still shown, every tab of the pod whole.
      await grid().locator('.pod-row').first().dblclick();
      const detail = page.locator('section.pod-detail');
      await detail.getByRole('tab', { name: 'Summary' }).waitFor();
      await expect.poll(shownHeaders).toContain('Node');
      expect(await headerProblems(page)).toEqual([]);
      expect(await misalignedRows(page)).toEqual([]);
      expect(await cutTabs(page)).toEqual([]);
      await shot(`fleet-layout-pod-open-${size.width}`);
      await detail.getByRole('button', { name: 'Close pod detail' }).click();
      await detail.waitFor({ state: 'detached' });
    }
  }, 120_000);

  it('has the column chooser of one node’s table: NODE shown by default, columns of any field that sort, saved views', async () => {
    const chooser = page.getByRole('dialog', { name: 'Columns and views' });
    const fieldCells = () =>
      page.locator('.pods-head [role=columnheader]').evaluateAll((cs) => {
        const index = cs.findIndex((c) => c.getAttribute('title') === 'spec.restartPolicy');
        return [...document.querySelectorAll('[role=row][data-uid]')].map((r) => r.children[index]?.textContent ?? '');
      });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      // v over the table opens the chooser, as over one node's; NODE is listed and shown.
      await grid().focus();
      await page.keyboard.press('v');
      await chooser.waitFor();
      expect(await chooser.getByRole('checkbox', { name: 'Node' }).isChecked()).toBe(true);
      await shot(`fleet-columns-chooser-${size.width}`);
      await page.keyboard.press('Escape');
      await chooser.waitFor({ state: 'detached' });
    }

    await page.setViewportSize(SIZES[0]!);
    await page.getByRole('button', { name: /^Columns/ }).click();
    await chooser.getByRole('checkbox', { name: 'Pod IP' }).uncheck();
    await chooser.getByRole('combobox', { name: 'Add a column of a pod field' }).fill('spec.restartPolicy');
    await chooser.getByRole('combobox', { name: 'Add a column of a pod field' }).press('Enter');
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });
    // Each row's value read from its own source.
    await expect.poll(shownHeaders).toContain('restartPolicy');
    expect(await shownHeaders()).not.toContain('Pod IP');
    await expect.poll(async () => (await fieldCells()).filter((t) => !['Always', 'Never', 'OnFailure'].includes(t))).toEqual([]);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      // Narrower, the added column gives way before NODE does (pod-columns.ts); nothing covers anything.
      await expect.poll(shownHeaders).toContain('Node');
      await expect.poll(() => headerProblems(page)).toEqual([]);
      await expect.poll(() => misalignedRows(page)).toEqual([]);
      await shot(`fleet-columns-${size.width}`);
    }
    await page.setViewportSize(SIZES[0]!);

    // The field column sorts over every source's pods, and a view saved here keeps the sort.
    await grid().getByRole('button', { name: 'Sort by spec.restartPolicy' }).click();
    await grid().getByRole('button', { name: 'Sort by spec.restartPolicy' }).click();
    await expect.poll(() => grid().getByRole('columnheader', { name: 'Sort by spec.restartPolicy' }).getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => {
      const texts = await fieldCells();
      return texts.length > 0 && texts.join() === [...texts].sort((a, b) => b.localeCompare(a)).join();
    }).toBe(true);
    await page.getByRole('button', { name: /^Columns/ }).click();
    await chooser.getByRole('textbox', { name: /as a view/ }).fill('Fleet policies');
    await chooser.getByRole('button', { name: 'Save view' }).click();
    await chooser.getByRole('button', { name: 'Default columns' }).click();
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });
    await grid().getByRole('button', { name: 'Sort by Node' }).click();
    await expect.poll(shownHeaders).not.toContain('restartPolicy');
    // The : palette applies it to this table, as it applies a view to one node's.
    await grid().focus();
    await page.keyboard.press(':');
    await page.keyboard.type('fleet policies');
    await page.keyboard.press('Enter');
    await expect.poll(shownHeaders).toContain('restartPolicy');
    expect(await grid().getByRole('columnheader', { name: 'Sort by spec.restartPolicy' }).getAttribute('aria-sort')).toBe('descending');
    // The keys of one node's table: / to filter, Enter to the first match, Enter to open it.
    await grid().focus();
    await page.keyboard.press('/');
    await page.keyboard.type('etcd');
    await page.keyboard.press('Enter');
    await expect.poll(() => grid().locator('.pod-row[aria-selected=true]').count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.locator('section.pod-detail').getByRole('tab', { name: 'Summary' }).waitFor();
    await page.locator('section.pod-detail').getByRole('button', { name: 'Close pod detail' }).click();
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('');
    // Back to the defaults for the test after this one.
    await page.getByRole('button', { name: /^Columns/ }).click();
    await chooser.getByRole('button', { name: 'Default columns' }).click();
    await page.keyboard.press('Escape');
    await grid().getByRole('button', { name: 'Sort by Node' }).click();
  }, 120_000);

  it('one node with a pod open: the mask box covers neither the node name nor its tags, and every tab of the pod is seen whole', async () => {
    await page.getByRole('button', { name: /^Node unix:.*node-a\.sock:/ }).click();
    await page.getByLabel('Field mask').waitFor();
    await grid().getByRole('button', { name: 'Sort by Restarts' }).click();
    await grid().locator('.pod-row').first().dblclick();
    const detail = page.locator('section.pod-detail');
    await detail.getByRole('tab', { name: 'Summary' }).waitFor();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await shot(`node-pod-open-${size.width}`);
      expect(await overlaps(page, { heading: '.node-heading h1', tags: '.node-heading .tag', detail: '.node-heading-detail', mask: '.mask-box', actions: '.toolbar-actions > :not(.mask-box)' })).toEqual([]);
      expect(await cutTabs(page)).toEqual([]);
      // The table is narrow with the pod open: the column sorted by keeps its place, no header is cut.
      expect(await sortedHeader()).toEqual([{ label: 'Restarts', shown: true }]);
      expect(await headerProblems(page)).toEqual([]);
      expect(await misalignedRows(page)).toEqual([]);
    }
  }, 60_000);
});
