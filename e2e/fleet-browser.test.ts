// Many nodes in the real UI: hosts with their own sshd and simulated kubelet behind one bastion (the fleet
// harness), the app core and the browser-mode server, the built renderer in Chromium. An operator adds the
// nodes by a host pattern, looks at all their pods at once, picks two and reads the comparison.
// Screenshots go to e2e/artifacts/ (git-ignored).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workloadKey, type WorkloadId } from '../app/fleet/workload-identity';
import { createHost, type Host } from '../app/host/host';
import { podToKubectlJson } from '../app/pod/kubectl-json';
import type { UiServer } from '../app/ui-server/ui-server';
import { DRIFTED_FLEET, firstWorkloadOf, HOTFIX_IMAGE } from './harness/drifted-fleet';
import { startFleetHarness, type FleetHarness } from './harness/fleet-harness';
import { openUiInChromium } from './testing/ui-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');

let f: FleetHarness;
let inspector: Host;
let server: UiServer;
let browser: BrowserContext;
let page: Page;
let work: string;
let deployment: WorkloadId;
let daemonSet: WorkloadId;

const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });
beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'ns-e2e-fleet-'));
  f = await startFleetHarness({ hosts: DRIFTED_FLEET });
  deployment = firstWorkloadOf(f.hosts[0]!.kubelet, 'Deployment');
  daemonSet = firstWorkloadOf(f.hosts[0]!.kubelet, 'DaemonSet');
  inspector = await createHost({ mode: 'browser', stateDir: join(work, 'state'), demo: false, sshConfigFile: f.sshConfig, defaultExportDir: work });
  ({ server, browser, page } = await openUiInChromium(inspector, join(work, 'chromium'), { acceptDownloads: true, timeoutMs: 20_000 }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inspector?.close();
  await f?.stop();
});

const grid = () => page.getByRole('grid', { name: 'Pods' });
const nodeColumn = () => grid().locator('.pod-row .c-node').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));

describe('many nodes in the browser', () => {
  it('names the ssh_config the app was started with in Add node, and marks the bastion as a jump host, listed last', async () => {
    await page.getByRole('button', { name: 'Add node…' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add node' });
    const search = dialog.getByLabel('Search SSH config hosts');
    expect(await search.getAttribute('placeholder')).toBe(`Search ${f.sshConfig} hosts`);
    const options = dialog.getByRole('listbox', { name: 'SSH config hosts' }).getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    const last = options.last();
    expect(await last.locator('.mono').textContent()).toBe('bastionjump host');
    expect(await options.locator('.tag', { hasText: 'jump host' }).count()).toBe(1);
    await shot('fleet-add-node-hosts');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('adds every host a pattern matches, in a group, and shows all their pods in one table', async () => {
    await page.getByRole('button', { name: 'Add several…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add several nodes' });
    await dialog.getByLabel('Hosts or patterns, one per line').fill('worker-*\nnomatch-*');
    await dialog.getByText("Line 2: 'nomatch-*' matches no Host alias").waitFor();
    await expect.poll(() => dialog.getByRole('list', { name: 'Hosts that will be added' }).locator('li').allTextContents()).toEqual(['worker-1', 'worker-2', 'worker-3']);
    await dialog.getByLabel('Group', { exact: true }).fill('workers');
    await dialog.getByLabel('Pods API socket', { exact: true }).fill(f.nodeSocketPath!);
    await shot('fleet-add-several');
    await dialog.getByRole('button', { name: 'Add 3 nodes' }).click();

    // The nodes added are shown together at once; the header counts them by state.
    await page.getByRole('heading', { name: '3 sources' }).waitFor();
    await page.getByLabel('Sources by state').getByText('3 live').waitFor({ timeout: 60_000 });
    const total = f.hosts.reduce((n, h) => n + h.kubelet.store.size, 0);
    await page.getByRole('tab', { name: `Pods (${total})` }).waitFor();
    expect(await page.getByRole('group', { name: 'Nodes by state' }).textContent()).toContain('3 live');
    expect(await page.getByRole('list', { name: 'Group workers' }).getByRole('listitem').count()).toBe(3);

    await page.getByLabel('Filter pods').fill('node:worker-3');
    await expect.poll(nodeColumn).toEqual(Array(f.hosts[2]!.kubelet.store.size).fill('worker-3'));
    await shot('fleet-table');
    await page.getByLabel('Filter pods').fill('');
  }, 120_000);

  it('marks the pods of an offline source as such, never as live', async () => {
    const snapshot = join(work, 'worker-1-before.json');
    writeFileSync(snapshot, `{"apiVersion":"v1","kind":"List","items":[${f.hosts[0]!.kubelet.store.list().map((p) => podToKubectlJson(p)).join(',')}]}`);
    await page.getByTestId('open-files-input').setInputFiles(snapshot);
    // Opened (its upload and reading take a while on a busy machine) before the group is ticked: opening it shows it alone.
    await page.getByRole('heading', { name: 'worker-1-before.json', exact: true }).waitFor({ timeout: 15_000 });
    // Tick the workers group and the file together.
    await page.getByRole('button', { name: 'Include the group workers' }).click();
    await page.getByRole('checkbox', { name: 'Include worker-1-before.json' }).check();
    await page.getByRole('heading', { name: '4 sources' }).waitFor();
    await page.getByLabel('Filter pods').fill('node:worker-1-before.json');
    const rows = grid().locator('.pod-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    expect(await rows.locator('.c-node .tag').allTextContents()).toEqual(Array(await rows.count()).fill('offline'));
    expect(await page.getByRole('note').textContent()).toContain('worker-1-before.json');
    await shot('fleet-offline');
    await page.getByLabel('Filter pods').fill('');
  }, 60_000);

  it('compares two nodes: the matrix marks the Deployment whose image differs, and only it', async () => {
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('checkbox', { name: 'Include worker-1', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Include worker-2', exact: true }).check();
    await page.getByRole('heading', { name: '2 sources' }).waitFor();
    // The events feed follows the selection: only the two nodes' lines.
    const feedNodes = await page.getByRole('region', { name: 'Live events' }).locator('.feed-node').allTextContents();
    expect(feedNodes.length).toBeGreaterThan(0);
    expect(new Set(feedNodes)).toEqual(new Set(['worker-1', 'worker-2']));
    await page.getByRole('tab', { name: /^Compare/ }).click();
    const matrix = page.getByRole('table', { name: 'Workloads by source' });
    await matrix.waitFor();
    expect(await matrix.locator('thead th').allTextContents()).toEqual(['Workload', 'worker-1', 'worker-2', 'Drift']);
    const drifted = matrix.locator('tbody tr.drift');
    await expect.poll(() => drifted.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-workload')))).toEqual([workloadKey(deployment)]);
    expect(await drifted.locator('td.cell-drift').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-source')))).toEqual(['worker-2']);
    expect(await drifted.locator('.drift-kinds').textContent()).toMatch(/^image \(/);
    // A cell says ready/pods and the phase.
    const daemonRow = matrix.locator(`tbody tr[data-workload="${workloadKey(daemonSet)}"]`);
    expect(await daemonRow.locator('td').first().textContent()).toMatch(/^\d+\/\d+ \w+/);
    await shot('fleet-compare-two');

    // Two cells of the drifted row open their pods side by side: the image is what differs.
    await drifted.locator('td[data-source="worker-1"] button').click();
    await drifted.locator('td[data-source="worker-2"] button').click();
    const diff = page.getByRole('dialog', { name: /^Compare .* with / });
    await diff.getByText(HOTFIX_IMAGE).first().waitFor();
    await shot('fleet-cell-diff');
    await diff.getByRole('button', { name: 'Close dialog' }).click();
  }, 60_000);

  it('compares the group and exports the matrix as CSV with the missing DaemonSet in it', async () => {
    await page.getByRole('button', { name: 'Include the group workers' }).click();
    await page.getByRole('heading', { name: '3 sources' }).waitFor();
    await page.getByRole('tab', { name: /^Compare/ }).click();
    const matrix = page.getByRole('table', { name: 'Workloads by source' });
    await expect.poll(() => matrix.locator('tbody tr.drift').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-workload')).sort())).toEqual(
      [workloadKey(deployment), workloadKey(daemonSet)].sort(),
    );
    const missing = matrix.locator(`tbody tr[data-workload="${workloadKey(daemonSet)}"] td.cell-drift`);
    expect(await missing.evaluateAll((cs) => cs.map((c) => [c.getAttribute('data-source'), c.textContent]))).toEqual([['worker-3', 'missing']]);
    await shot('fleet-compare-three');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('namespace,kind,workload,source,state,pods,ready_pods,phase,restarts,drift,drift_values');
    const daemonLines = csv.filter((l) => l.startsWith(`${daemonSet.namespace},DaemonSet,${daemonSet.name},`));
    expect(daemonLines.map((l) => l.split(',').slice(3, 5))).toEqual([
      ['worker-1', 'present'],
      ['worker-2', 'present'],
      ['worker-3', 'absent'],
    ]);
    // Only the node the DaemonSet is missing from says so.
    expect(daemonLines.map((l) => l.split(',').slice(9).join(','))).toEqual([',', ',', 'missing,']);

    // Only the sources that differ: worker-2 (the image) and worker-3 (the DaemonSet missing), not worker-1.
    await page.getByRole('checkbox', { name: 'Only sources that differ' }).check();
    await expect.poll(() => matrix.locator('thead th').allTextContents()).toEqual(['Workload', 'worker-2', 'worker-3', 'Drift']);
    // Sources as rows: a row per node, the same cells.
    await page.getByRole('checkbox', { name: 'Sources as rows' }).check();
    const transposed = page.getByRole('table', { name: 'Sources by workload' });
    expect(await transposed.locator('tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-source-row')))).toEqual(['worker-2', 'worker-3']);
    const missingThere = transposed.locator(`td.cell-drift[data-workload="${workloadKey(daemonSet)}"]`);
    expect(await missingThere.evaluateAll((cs) => cs.map((c) => [c.getAttribute('data-source'), c.textContent]))).toEqual([['worker-3', 'missing']]);
    await shot('fleet-compare-transposed');
  }, 60_000);
});
