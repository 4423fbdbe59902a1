// The whole browser mode against real components: OpenSSH on loopback in front of a simulated
// kubelet on a root-only socket, the app core, the browser-mode server, and the built renderer in
// Chromium. Screenshots of the main views go to e2e/artifacts/ (git-ignored).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../app/host/host';
import { readKubectlYaml } from '../app/pod/kubectl-yaml-reader';
import type { PodObject } from '../app/pod/pod-tree';
import { detachedCall, type NodeInfo, type NodeMetrics } from '../app/contract';
import { startSimulatedKubelet, type SimulatedKubelet } from '../app/sim/kubelet-server';
import { GPU_RESOURCE } from '../app/sim/pod-resources-server';
import type { UiServer } from '../app/ui-server/ui-server';
import { runCommand } from './harness/run-command';
import { HARNESS_HOST_ALIASES, startSshHarness, type SshHarness } from './harness/ssh-harness';
import { headerProblems } from './testing/layout-checks';
import { openUiInChromium } from './testing/ui-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');

let h: SshHarness;
let sim: SimulatedKubelet | undefined;
let inspector: Host;
let server: UiServer;
let browser: BrowserContext;
let page: Page;
let work: string;
let tokenFile: string;
let podResourcesSocket: string;
const TOKEN = 'tok-e2e-0123456789';

const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });
const cli = resolve(import.meta.dirname, '..', 'bin', 'nodescope.js');

/** Opens Add node with the harness's sshd filled in as root. */
async function addNodeOverSsh() {
  await page.getByRole('button', { name: 'Add node' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add node' });
  // Fields by their labels, as a user finds them (placeholders are examples that change).
  const fill = (label: string, value: string) => dialog.getByLabel(label, { exact: true }).fill(value);
  await fill('Host', h.host);
  await fill('Port', String(h.port));
  await fill('User', h.root.name);
  await fill('Identity file', h.root.key);
  return { dialog, fill };
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'ns-e2e-browser-'));
  h = await startSshHarness({
    startKubelet: async (socketPath) => {
      // The same kubelet also serves its HTTPS API and PodResources, as a real one does: worker-1 is added
      // once through the Pods API and once through REST.
      podResourcesSocket = join(dirname(socketPath), 'pod-resources.sock');
      sim = await startSimulatedKubelet({
        socketPath,
        pods: 120,
        churnPerSecond: 4,
        seed: 5,
        nodeName: 'worker-1',
        rest: { tokens: { [TOKEN]: 'e2e' } },
        podResourcesSocketPath: podResourcesSocket,
      });
      return { stop: () => sim!.stop() };
    },
  });
  // The machine's own ssh setup stays out: no agent, a known_hosts of our own that starts empty.
  const sshConfig = join(work, 'ssh_config');
  writeFileSync(sshConfig, `Host *\n  IdentityAgent none\n  UserKnownHostsFile ${join(work, 'known_hosts')}\n  GlobalKnownHostsFile /dev/null\n`);
  tokenFile = join(work, 'kubelet-token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  // A node list from an older, broken run: the app must start anyway and say what it did with it.
  mkdirSync(join(work, 'state'), { recursive: true });
  writeFileSync(join(work, 'state', 'nodes.json'), '{"version":1,"nodes":[');
  inspector = await createHost({ mode: 'browser', stateDir: join(work, 'state'), demo: false, sshConfigFile: sshConfig, defaultExportDir: work });
  ({ server, browser, page } = await openUiInChromium(inspector, join(work, 'chromium')));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inspector?.close();
  await h?.stop();
});

describe('browser mode', () => {
  it('says the saved node list could not be read and where it was kept, until dismissed', async () => {
    const notice = page.getByRole('alert').filter({ hasText: 'Your saved nodes could not be read' });
    await notice.waitFor();
    const kept = readdirSync(join(work, 'state')).find((f) => f.startsWith('nodes.json.unreadable-'));
    expect(kept).toBeDefined();
    expect(await notice.textContent()).toContain(join(work, 'state', kept!));
    await shot('notice');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
  });

  it('adds a node over SSH, asks about its host key and shows its pods live', async () => {
    const { dialog, fill } = await addNodeOverSsh();
    await fill('Pods API socket', h.socketPath);
    await fill('Display name', 'worker-1');
    await shot('add-node');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();

    const question = page.getByRole('dialog', { name: 'Unknown host key' });
    await question.waitFor();
    await expect.poll(() => question.getByLabel('Host key fingerprint').textContent()).toMatch(/^SHA256:/);
    await shot('host-key');
    // The user's OpenSSH asks (the default client): it records what it accepts, so "once" is not offered.
    expect(await question.getByRole('button').allTextContents()).not.toContain('Accept once');
    await expect(question.textContent()).resolves.toContain('Your OpenSSH records a key it accepts in your known_hosts');
    await question.getByRole('button', { name: 'Accept and remember' }).click();

    // The node churns, so the count is checked against the simulator's own, give or take a change in flight.
    await expect.poll(() => page.getByLabel(/^Node worker-1:/).getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/live/i);
    await expect
      .poll(async () => Math.abs(Number(/(\d+) pods/.exec((await page.getByRole('navigation', { name: 'Nodes' }).textContent()) ?? '')?.[1]) - sim!.store.size), { timeout: 10_000 })
      .toBeLessThanOrEqual(2);
    await page.getByRole('grid', { name: 'Pods' }).waitFor();
    await shot('pods');
  });

  it('filters and sorts the table', async () => {
    // From here on the node changes only when the test changes it, so the table can be checked exactly.
    sim!.churn.stop();
    const grid = page.getByRole('grid', { name: 'Pods' });
    const anyName = (await grid.getByRole('row').nth(1).getByRole('gridcell').nth(1).textContent())!.trim();
    await page.getByLabel('Filter pods').fill(anyName);
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);
    await page.getByLabel('Filter pods').fill('');

    const restarts = sim!.store.list().map((p) =>
      (((p.status as PodObject).containerStatuses ?? []) as PodObject[]).reduce((n, c) => n + Number(c.restartCount ?? 0), 0),
    );
    const firstRestarts = async () => Number(await grid.getByRole('row').nth(1).getByRole('gridcell').nth(4).textContent());
    await page.getByRole('button', { name: 'Sort by Restarts' }).click();
    const one = await firstRestarts();
    await page.getByRole('button', { name: 'Sort by Restarts' }).click();
    const other = await firstRestarts();
    expect([one, other].sort((a, b) => a - b)).toEqual([Math.min(...restarts), Math.max(...restarts)]);
  });

  it('opens a pod and sees a live change made on the node', async () => {
    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.getByRole('row').nth(1).click();
    await page.keyboard.press('Enter');
    const detail = page.locator('section.pod-detail');
    await detail.waitFor();
    await shot('pod-detail');
    const title = (await detail.getAttribute('aria-label'))!; // "Pod ns/name"
    const [namespace, name] = title.replace(/^Pod /, '').split('/') as [string, string];
    const pod = sim!.store.list().find((p) => (p.metadata as PodObject).name === name && (p.metadata as PodObject).namespace === namespace);
    expect(pod, `${namespace}/${name} in the simulator`).toBeDefined();
    const meta = pod!.metadata as PodObject;
    // Only this change while the test looks at what changed: the churn would change the pod again at random.
    sim!.churn.stop();
    try {
      sim!.store.apply({ op: 'update', pod: { ...pod!, metadata: { ...meta, labels: { ...(meta.labels as PodObject), e2e: 'changed' } } } });
      await page.getByLabel('Live events').getByText(`${namespace}/${name}`).first().waitFor({ timeout: 10_000 });
      await detail.getByText('e2e').first().waitFor({ timeout: 10_000 });

      // The change is a new version in the pod's history, after the one the first list brought.
      await detail.getByRole('tab', { name: 'History' }).click();
      const timeline = detail.getByRole('list', { name: 'Pod versions, newest first' });
      await expect.poll(() => timeline.getByRole('listitem').first().textContent(), { timeout: 10_000 }).toMatch(/MODIFIED.*label e2e=changed added/);
      expect(await timeline.getByRole('listitem').last().textContent()).toMatch(/LISTED/);
      await shot('pod-history');
      // The version before the change opens as the detail shows a pod: without the label.
      await timeline.getByRole('button').nth(1).click();
      const earlier = detail.getByRole('region', { name: /^Version of / });
      await earlier.getByRole('button', { name: 'JSON' }).click();
      const earlierJson = (await earlier.getByRole('region', { name: 'Pod JSON' }).textContent())!;
      expect(earlierJson).toContain(`"name": "${name}"`);
      expect(earlierJson).not.toContain('"e2e"');

      // What changed: marked on the pod's row and in its detail, which opens the diff of the last two versions.
      const row = page.getByRole('grid', { name: 'Pods' }).locator(`[role=row][data-uid="${String(meta.uid)}"]`);
      expect(await row.locator('.changed-mark').getAttribute('aria-label')).toMatch(/^changed \d+s ago: label e2e=changed added$/);
      const note = detail.locator('.changed-note');
      await expect.poll(() => note.textContent()).toMatch(/Changed \d+s ago: label e2e=changed added/);
      await note.getByRole('button', { name: 'See what changed' }).click();
      const diff = detail.getByRole('region', { name: 'Two versions compared' });
      await expect.poll(() => diff.getByRole('list', { name: 'Changes by path' }).getByRole('listitem').allTextContents()).toEqual(['metadata.labels.e2e: added "changed"']);
      expect(await diff.locator('.diff-side-label.right').textContent()).toMatch(/current/);
      await shot('pod-history-diff');
      // Any two versions: the first list against the current one shows the same change here.
      const versions = detail.getByRole('list', { name: /pick two to compare/ });
      await versions.getByRole('button').last().click();
      await expect.poll(() => diff.locator('.diff-side-label.left').textContent()).toMatch(/version 1 of/);
      await expect.poll(() => diff.getByRole('list', { name: 'Changes by path' }).getByRole('listitem').allTextContents()).toContain('metadata.labels.e2e: added "changed"');
      await page.setViewportSize({ width: 1024, height: 768 });
      await shot('pod-history-diff-1024');
      // The detail pane is narrow there: the same diff opens as large as the window.
      await diff.getByRole('button', { name: 'Open wide' }).click();
      const wide = page.getByRole('dialog', { name: /two versions$/ });
      await expect.poll(() => wide.getByRole('list', { name: 'Changes by path' }).getByRole('listitem').allTextContents()).toContain('metadata.labels.e2e: added "changed"');
      await shot('pod-history-diff-wide-1024');
      await page.keyboard.press('Escape');
      await wide.waitFor({ state: 'detached' });
      await page.setViewportSize({ width: 1440, height: 900 });
    } finally {
      sim!.churn.start();
    }
  });

  it('fits a 1024×768 window: no header runs into another or is cut, the detail keeps its facts readable', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      const detail = page.locator('section.pod-detail');
      await detail.getByRole('tab', { name: 'Summary' }).click();
      await detail.locator('.facts.grid dd').first().waitFor();
      await shot('pod-detail-1024');
      expect(await headerProblems(page)).toEqual([]);
      // Squeezed, a fact wrapped every few characters ("kind-worke / r"): each value keeps room for a name.
      const narrow = await detail.locator('.facts.grid dd').evaluateAll((dds) => dds.filter((d) => d.getBoundingClientRect().width < 160).map((d) => d.textContent));
      expect(narrow).toEqual([]);
      await detail.getByRole('button', { name: 'Close pod detail' }).click();
      await detail.waitFor({ state: 'detached' });
      await shot('pods-1024');
      expect(await headerProblems(page)).toEqual([]);
      // A node read through the Pods API keeps Ready and Restarts rather than three n/a columns.
      const shown = await page.locator('.pods-head [role=columnheader]').evaluateAll((cs) => cs.filter((c) => c.getBoundingClientRect().width > 0).map((c) => c.textContent?.replace(/[▴▾]/g, '').trim()));
      expect(shown).toEqual(expect.arrayContaining(['Ready', 'Restarts']));
      expect(shown).not.toContain('CPU');
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('shows reconnecting when SSH is killed, and live again after', async () => {
    const pill = page.getByLabel(/^Node worker-1:/);
    await h.killConnections();
    await expect.poll(() => pill.getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/reconnect|connecting/i);
    await shot('reconnecting');
    await expect.poll(() => pill.getAttribute('aria-label'), { timeout: 30_000 }).toMatch(/live/i);
  });

  it('checks a field mask as it is typed and applies it to the rows', async () => {
    const mask = page.getByLabel('Field mask');
    const grid = page.getByRole('grid', { name: 'Pods' });
    const firstStatus = () => grid.getByRole('row').nth(1).getByRole('gridcell').nth(2).textContent();
    await mask.fill('metadata.name, status.phaze');
    await expect.poll(() => page.locator('#mask-message').textContent()).toMatch(/phaze/);
    await shot('mask-error');
    await mask.fill('metadata.name,metadata.namespace');
    await mask.press('Enter');
    // Not selected is its own mark, never a dash or a zero.
    await expect.poll(firstStatus).toBe('⊘');
    await mask.fill('');
    await mask.press('Enter');
    await expect.poll(firstStatus).not.toBe('⊘');
  });

  it('exports the pods and the file reads back as a kubectl List', async () => {
    // The export is compared with the simulator's pods: the node holds still, and the window has caught up.
    sim!.churn.stop();
    try {
      const uids = (pods: { metadata?: unknown }[]) => pods.map((p) => (p.metadata as PodObject).uid as string).sort();
      await expect.poll(() => page.getByRole('grid', { name: 'Pods' }).getAttribute('aria-rowcount'), { timeout: 20_000 }).toBe(String(sim!.store.size + 1));
      await page.getByRole('button', { name: /Export/ }).first().click();
      const path = join(work, 'worker-1-pods.json');
      await page.getByLabel('Export file path').fill(path);
      await shot('export');
      await page.getByRole('dialog').getByRole('button', { name: /^(Export|Save)/ }).click();
      await expect.poll(() => { try { return JSON.parse(readFileSync(path, 'utf8')).kind; } catch { return undefined; } }, { timeout: 10_000 }).toBe('List');
      const list = JSON.parse(readFileSync(path, 'utf8')) as { items: { metadata: { uid: string } }[] };
      expect(uids(list.items)).toEqual(uids(sim!.store.list()));
    } finally {
      sim!.churn.start();
    }
  });

  it('asks before replacing an existing export, and highlights a relative path', async () => {
    const path = join(work, 'worker-1-pods.json');
    writeFileSync(path, 'an earlier export');
    const dialog = page.getByRole('dialog');
    const field = page.getByLabel('Export file path');
    if (!(await dialog.isVisible())) await page.getByRole('button', { name: /Export/ }).first().click();
    await field.fill('pods.json');
    await dialog.getByRole('button', { name: /^Export \d+ pods$/ }).click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await expect(dialog.getByRole('alert').textContent()).resolves.toContain('absolute');

    await field.fill(path);
    expect(await field.getAttribute('aria-invalid')).toBe(null);
    await dialog.getByRole('button', { name: /^Export \d+ pods$/ }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('exists already');
    expect(readFileSync(path, 'utf8')).toBe('an earlier export');
    await shot('export-replace');
    await dialog.getByRole('button', { name: 'Replace the file' }).click();
    await expect.poll(() => { try { return JSON.parse(readFileSync(path, 'utf8')).kind; } catch { return undefined; } }, { timeout: 10_000 }).toBe('List');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  it("shows a pod as kubectl YAML, byte for byte what nodescope get -o yaml prints for it", async () => {
    // Still, so the window and the command line print the same version of the pod.
    sim!.churn.stop();
    try {
      const detail = page.locator('section.pod-detail');
      if (!(await detail.isVisible())) {
        await page.getByRole('grid', { name: 'Pods' }).getByRole('row').nth(1).click();
        await page.keyboard.press('Enter');
      }
      const [namespace, name] = (await detail.getAttribute('aria-label'))!.replace(/^Pod /, '').split('/') as [string, string];
      const uid = sim!.store.list().map((p) => p.metadata as PodObject).find((m) => m.name === name && m.namespace === namespace)!.uid as string;
      await detail.getByRole('tab', { name: 'YAML' }).click();
      const yaml = page.getByRole('region', { name: 'Pod YAML' });
      await expect.poll(() => yaml.textContent()).toContain(`uid: ${uid}`);
      await page.getByRole('searchbox', { name: 'Find in YAML' }).fill(`uid: ${uid}`);
      await expect.poll(() => page.locator('.match-count').textContent()).toBe('1/1');
      await page.getByRole('button', { name: 'Fold', exact: true }).click();
      await expect.poll(() => yaml.getByRole('button', { name: /^Unfold \d+ lines$/ }).count()).toBeGreaterThan(1);
      await shot('pod-yaml');

      const printed = await runCommand(process.execPath, [cli, 'get', HARNESS_HOST_ALIASES.target, uid, '-F', h.sshConfig, '--socket', h.socketPath, '-o', 'yaml']);
      expect(printed.code, printed.stderr).toBe(0);
      // What Save writes is the view's text; a refetch still in flight when the churn stopped may replace it once.
      await expect
        .poll(async () => {
          const [download] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: 'Save…' }).click()]);
          expect(download.suggestedFilename()).toBe(`${namespace}_${name}.yaml`);
          return readFileSync(await download.path(), 'utf8');
        }, { timeout: 15_000 })
        .toBe(printed.stdout);
    } finally {
      sim!.churn.start();
    }
  });

  it('exports the pods as a kubectl List in YAML', async () => {
    await page.getByRole('button', { name: /Export/ }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /kubectl List YAML/ }).check();
    const field = page.getByLabel('Export file path');
    await expect.poll(() => field.inputValue()).toMatch(/\.yaml$/);
    const path = join(work, 'worker-1-pods.yaml');
    await field.fill(path);
    await dialog.getByRole('button', { name: /^Export \d+ pods$/ }).click();
    // The dialog shows its progress first (a status too): the file is there once it says Saved.
    await dialog.getByRole('status').filter({ hasText: /^Saved \d+ pods/ }).waitFor({ timeout: 10_000 });
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n')).toBe(true);
    expect(text.endsWith('kind: List\nmetadata:\n  resourceVersion: ""\n')).toBe(true);
    const [list] = readKubectlYaml(text) as [{ kind: string; items: { metadata: PodObject }[] }];
    expect(list.kind).toBe('List');
    // The node churns: the file holds the pods the window had, give or take a change in flight.
    const exported = new Set(list.items.map((p) => p.metadata.uid));
    const onNode = sim!.store.list().map((p) => (p.metadata as PodObject).uid);
    expect(onNode.filter((uid) => !exported.has(uid as string)).length).toBeLessThanOrEqual(2);
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  it('opens the export as a snapshot: marked offline everywhere, never live, its pods readable', async () => {
    const path = join(work, 'worker-1-pods.json');
    // Picked with its provenance sidecar, the upload keeps when it was taken.
    await page.getByTestId('open-files-input').setInputFiles([`${path}.nodescope.json`, path]);
    const node = page.getByRole('button', { name: /^Node worker-1-pods\.json:/ });
    await node.waitFor({ timeout: 15_000 });
    expect(await node.getAttribute('aria-label')).toMatch(/Snapshot of /);
    expect(await node.getAttribute('aria-label')).not.toMatch(/time not recorded/);
    expect(await node.getAttribute('aria-label')).not.toMatch(/live/i);
    expect(await node.textContent()).toContain('offline');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('worker-1-pods.json');
    // The sidecar names the node it was taken from.
    await expect(page.locator('.node-heading .tag-offline').textContent()).resolves.toMatch(/^offline snapshot · worker-1 · .*worker-1-pods\.json/);
    await expect(page.getByText(/Offline, read-only/).textContent()).resolves.toContain('Not the live node');
    const grid = page.getByRole('grid', { name: 'Pods' });
    await expect.poll(() => grid.getByRole('row').count()).toBeGreaterThan(1);
    await shot('snapshot');
    await grid.getByRole('row').nth(1).dblclick();
    const detail = page.locator('section.pod-detail');
    await detail.getByRole('region', { name: 'Containers' }).waitFor();
    await detail.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => detail.getByRole('list', { name: 'Pod versions, newest first' }).textContent()).toMatch(/LISTED/);
    // Nothing to connect: a file is not a node.
    expect(await page.getByRole('button', { name: 'Connect worker-1-pods.json' }).count()).toBe(0);
  });

  it('compares a snapshot with the live node: exactly the pod changed on the node, then that pod side by side', async () => {
    await page.getByRole('button', { name: /^Node worker-1:/ }).click();
    sim!.churn.stop();
    try {
      // Changes already on their way when the churn stopped land before the snapshot is taken.
      await new Promise((r) => setTimeout(r, 1500));
      const path = join(work, 'before-change.json');
      await page.getByRole('button', { name: /^Export/ }).first().click();
      const exportDialog = page.getByRole('dialog');
      await page.getByLabel('Export file path').fill(path);
      await exportDialog.getByRole('button', { name: /^(Export|Save)/ }).click();
      await exportDialog.getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('open-files-input').setInputFiles(path);
      await page.getByRole('button', { name: /^Node before-change\.json:/ }).waitFor({ timeout: 15_000 });

      const pod = sim!.store.list()[7]!;
      const meta = pod.metadata as PodObject;
      sim!.store.apply({ op: 'update', pod: { ...pod, metadata: { ...meta, labels: { ...(meta.labels as PodObject), compared: 'yes' } } } });
      await page.getByRole('button', { name: /^Node worker-1:/ }).click();
      await page.getByLabel('Live events').getByText(`${String(meta.namespace)}/${String(meta.name)}`).first().waitFor({ timeout: 10_000 });

      await page.getByRole('button', { name: 'Compare…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Compare sources' });
      await dialog.getByLabel('Left (before): source').selectOption({ label: 'before-change.json (snapshot)' });
      await dialog.getByLabel('Right (after): source').selectOption({ label: 'worker-1 (live)' });
      await dialog.getByRole('button', { name: 'Compare', exact: true }).click();
      const result = dialog.getByRole('region', { name: 'Comparison result' });
      await expect.poll(() => result.locator('.compare-counts').textContent(), { timeout: 20_000 }).toMatch(/^0 removed · 0 added · 1 changed · \d+ unchanged/);
      const entries = result.locator('.diff-entry');
      expect(await entries.count()).toBe(1);
      expect(await entries.first().textContent()).toContain(`${String(meta.name)}metadata.labels.compared: added "yes"`);
      expect(await result.getByRole('heading', { level: 3 }).first().textContent()).toMatch(new RegExp(`^${String(meta.namespace)}`));
      await shot('compare-sources');
      // The pods filter language narrows the result.
      const filter = dialog.getByLabel('Filter compared pods');
      await filter.fill('ns:no-such-namespace');
      await result.getByText('No pod that differs matches the filter.').waitFor();
      await filter.fill(`ns:${String(meta.namespace)}`);
      await expect.poll(() => entries.count()).toBe(1);

      // Drill in: that pod as it was compared, side by side, the change listed by path.
      await filter.press('ArrowDown');
      await page.keyboard.press('Enter');
      const changes = dialog.getByRole('list', { name: 'Changes by path' });
      await expect.poll(() => changes.getByRole('listitem').allTextContents()).toEqual(['metadata.labels.compared: added "yes"']);
      await shot('compare-sources-pod');
      await page.setViewportSize({ width: 1024, height: 768 });
      await shot('compare-sources-pod-1024');
      await dialog.getByRole('button', { name: '← All compared pods' }).click();
      await shot('compare-sources-1024');
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Pod against pod: the changed pod against another pod of the snapshot, picked by name.
      const grid = page.getByRole('grid', { name: 'Pods' });
      // The table draws only the rows in view: the filter brings this one there.
      await page.getByRole('searchbox', { name: 'Filter pods' }).fill(String(meta.name));
      await grid.locator(`[role=row][data-uid="${String(meta.uid)}"]`).dblclick();
      await page.locator('section.pod-detail').getByRole('button', { name: 'Compare with…' }).click();
      const picker = page.getByRole('dialog', { name: /^Compare .* with/ });
      await picker.getByLabel('Filter pods to compare with').fill(String(meta.name));
      const options = picker.getByRole('option');
      const wanted = `${String(meta.namespace)}${String(meta.name)}same podbefore-change.json`;
      // The same pod in each source that has it (the earlier export too), and no other pod.
      await expect.poll(() => options.allTextContents()).toContain(wanted);
      const texts = await options.allTextContents();
      expect(texts.every((t) => t.startsWith(`${String(meta.namespace)}${String(meta.name)}same pod`))).toBe(true);
      for (let i = 0; i < texts.indexOf(wanted); i++) await page.keyboard.press('ArrowDown');
      await shot('compare-with-picker');
      await page.keyboard.press('Enter');
      await expect.poll(() => picker.getByRole('list', { name: 'Changes by path' }).getByRole('listitem').allTextContents()).toEqual(['metadata.labels.compared: removed (was "yes")']);
      await shot('compare-with-pod');
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'detached' });
      await page.getByRole('searchbox', { name: 'Filter pods' }).fill('');
    } finally {
      sim!.churn.start();
    }
  });

  it('says what is wrong with a file that is not pods, and keeps running', async () => {
    const bad = join(work, 'not-pods.json');
    writeFileSync(bad, '{"kind":"Pod","metadata":');
    await page.getByTestId('open-files-input').setInputFiles(bad);
    const banner = page.locator('.banner.bad', { hasText: 'not-pods.json' });
    await expect.poll(() => banner.textContent(), { timeout: 10_000 }).toMatch(/not-pods\.json: .*(truncated|end)/i);
    await shot('bad-file');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('button', { name: /^Node worker-1:/ }).waitFor();
  });

  it('records the live node from the UI, and the recording opens with a time scrubber', async () => {
    await page.getByRole('button', { name: /^Node worker-1:/ }).click();
    await page.getByRole('button', { name: '● Record' }).click();
    // Browser mode has no save dialog: ours names the file, by default after the node and the time.
    const recordDialog = page.getByRole('dialog', { name: 'Record worker-1' });
    const where = recordDialog.getByLabel('Recording file path');
    expect(await where.inputValue()).toMatch(new RegExp(`^${work}/worker-1-\\d{4}-\\d\\d-\\d\\dT\\d{6}Z\\.recording\\.ndjson$`));
    await where.fill(join(work, 'chosen', 'night.recording'));
    await recordDialog.getByRole('button', { name: 'Start recording' }).click();
    // A folder that is not there is said, in the dialog, with the path kept for another try.
    await expect.poll(() => recordDialog.getByRole('alert').textContent()).toMatch(/chosen/);
    await where.fill(join(work, 'night.recording'));
    await recordDialog.getByRole('button', { name: 'Start recording' }).click();
    await recordDialog.waitFor({ state: 'detached' });
    await page.locator('.node-heading').getByText('● recording').waitFor();
    // One change while recording, made on the node.
    const pod = sim!.store.list()[0]!;
    const meta = pod.metadata as PodObject;
    sim!.store.apply({ op: 'update', pod: { ...pod, metadata: { ...meta, labels: { ...(meta.labels as PodObject), recorded: 'yes' } } } });
    await page.getByLabel('Live events').getByText(`${String(meta.namespace)}/${String(meta.name)}`).first().waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: '■ Stop recording' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Recording saved:' });
    await saved.waitFor();
    const path = /Recording saved: (\S+) \((\d+) events\)/.exec((await saved.textContent())!)!;
    expect(Number(path[2])).toBeGreaterThanOrEqual(1);
    expect(path[1]).toBe(join(work, 'night.recording'));

    await page.getByTestId('open-files-input').setInputFiles(path[1]!);
    const name = path[1]!.split('/').pop()!;
    const node = page.getByRole('button', { name: new RegExp(`^Node ${name.replace(/[.]/g, '\\.')}: Recording at`) });
    await node.waitFor({ timeout: 15_000 });
    const slider = page.getByRole('slider', { name: 'Time in the recording' });
    await slider.focus();
    await page.keyboard.press('Home');
    await expect.poll(() => slider.getAttribute('aria-valuetext')).toMatch(/\(\+0s\)$/);
    await shot('recording');
    // At its start the pod had not changed yet: its history there holds only the first list.
    // The table draws only the rows in view: filtered to the pod, its row is drawn wherever it sorts.
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill(String(meta.name));
    await page.getByRole('grid', { name: 'Pods' }).getByRole('row', { name: new RegExp(String(meta.name)) }).first().dblclick();
    const detail = page.locator('section.pod-detail');
    await detail.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => detail.getByRole('list', { name: 'Pod versions, newest first' }).getByRole('listitem').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('');
  });

  it('adds a node read through the REST API: asks about the kubelet certificate, shows CPU, memory and probe columns', async () => {
    const { dialog, fill } = await addNodeOverSsh();
    await dialog.getByRole('radio', { name: /^REST API/ }).check();
    await fill('Kubelet port', String(sim!.rest!.port));
    await fill('Token file', tokenFile);
    await fill('PodResources socket', podResourcesSocket);
    await fill('Display name', 'rest-worker');
    await shot('add-node-rest');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();

    // The host key was remembered with the first node; the kubelet's certificate is asked about like one.
    const question = page.getByRole('dialog', { name: 'Unknown kubelet certificate' });
    await question.waitFor();
    expect(await question.getByLabel('Certificate fingerprint').textContent()).toBe(sim!.rest!.fingerprint);
    await shot('kubelet-certificate');
    await question.getByRole('button', { name: 'Accept and remember' }).click();

    await expect.poll(() => page.getByLabel(/^Node rest-worker:/).getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/live/i);
    await page.getByRole('button', { name: /^Node rest-worker:/ }).click();
    await page.locator('.node-heading').getByText('REST API').waitFor();
    const grid = page.getByRole('grid', { name: 'Pods' });
    for (const column of ['CPU', 'Memory', 'Probes']) await grid.getByRole('columnheader', { name: `Sort by ${column}` }).waitFor();
    // Metrics are read every few seconds: wait for the first read, then sort by CPU, biggest first.
    await expect.poll(() => grid.locator('[role=row][data-uid] .c-cpu').allTextContents(), { timeout: 20_000 }).toContainEqual(expect.stringMatching(/^\d+m$/));
    await grid.getByRole('button', { name: 'Sort by CPU' }).click();
    const cpus = (await grid.locator('[role=row][data-uid] .c-cpu').allTextContents()).slice(0, 5).map((t) => Number(t.replace(/m$/, '')));
    expect(cpus.every((c) => Number.isFinite(c))).toBe(true);
    expect(cpus).toEqual([...cpus].sort((a, b) => b - a));
    expect(await grid.locator('[role=row][data-uid] .c-mem').first().textContent()).toMatch(/^\d+(\.\d)?(Ki|Mi|Gi)$/);
    // The kubelet exports probe counts only: a last result shows once a second read sees a count rise.
    await expect.poll(() => grid.locator('[role=row][data-uid] .c-probes').allTextContents(), { timeout: 20_000 }).toContainEqual(expect.stringMatching(/^\d+ ok$/));
    await page.getByRole('region', { name: 'Node usage and resources' }).getByText(GPU_RESOURCE).waitFor();
    expect(await headerProblems(page)).toEqual([]);
    await shot('rest-node');

    // Probe results filter like any other column.
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('probe:ok');
    const okRows = await grid.locator('[role=row][data-uid] .c-probes').allTextContents();
    expect(okRows.length).toBeGreaterThan(0);
    expect(okRows.every((t) => /^\d+ ok$/.test(t))).toBe(true);
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('');

    // The node read through the Pods API has no such values: its table leaves the empty column out, and shown
    // by choice, it says not available, never zero.
    await page.getByRole('button', { name: /^Node worker-1:/ }).click();
    await grid.getByRole('columnheader', { name: 'Sort by Name', exact: true }).waitFor();
    expect(await grid.getByRole('columnheader', { name: 'Sort by CPU' }).count()).toBe(0);
    await page.getByRole('button', { name: /^Columns/ }).click();
    const chooser = page.getByRole('dialog', { name: 'Columns and views' });
    await chooser.getByRole('checkbox', { name: 'CPU' }).check();
    await chooser.getByRole('button', { name: 'Close dialog' }).click();
    await expect.poll(() => grid.locator('[role=row][data-uid] .c-cpu').first().textContent()).toBe('n/a');
    expect(await grid.locator('[role=row][data-uid] .c-cpu').first().getAttribute('title')).toContain('Pods API');
  });

  it("shows a GPU pod's devices, exclusive CPUs and memory in the pod detail", async () => {
    const rest = (await inspector.handlers['nodes.list']({}, detachedCall())).find((n: NodeInfo) => n.label === 'rest-worker')!;
    const metrics = (await inspector.handlers['nodes.metrics']({ nodeId: rest.id }, detachedCall())) as NodeMetrics;
    if (!metrics.resources.available) throw new Error(metrics.resources.reason);
    const [key, containers] = Object.entries(metrics.resources.pods).find(([, cs]) => Object.values(cs).some((c) => c.devices.some((d) => d.resource === GPU_RESOURCE)))!;
    const gpu = Object.values(containers).flatMap((c) => c.devices).find((d) => d.resource === GPU_RESOURCE)!;
    const [namespace, name] = key.split('/') as [string, string];

    await page.getByRole('button', { name: /^Node rest-worker:/ }).click();
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill(`ns:${namespace} ${name}`);
    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.getByRole('row', { name: new RegExp(name) }).first().dblclick();
    const detail = page.locator('section.pod-detail');
    await detail.getByRole('tab', { name: 'Resources' }).click();
    const ids = detail.getByRole('list', { name: `${GPU_RESOURCE} device IDs` });
    await ids.waitFor();
    expect(await ids.getByRole('listitem').allTextContents()).toEqual(gpu.ids);
    expect(await detail.textContent()).toContain(`NUMA ${gpu.numaNodes.join(',')}`);
    await expect.poll(() => detail.textContent()).toMatch(/Exclusive CPUs\s*\d+(, \d+)*/);
    await ids.scrollIntoViewIfNeeded();
    await shot('gpu-pod');
  });

  it('builds a mask in the tree from a preset plus a searched field, marks the columns it leaves out, and exports exactly its fields', async () => {
    // The export is compared with the simulator's pods: no change may be in flight meanwhile.
    sim!.churn.stop();
    await page.getByRole('button', { name: /^Node worker-1:/ }).click();
    // The pod detail of the test before is still open, which hides the table's right-hand columns.
    const detail = page.getByRole('button', { name: 'Close pod detail' });
    if (await detail.count()) await detail.click();
    // A filter left by a test before would hide rows the checks below count.
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('');
    await page.getByRole('button', { name: 'Fields…' }).click();
    const builder = page.getByRole('dialog', { name: /^Field mask for worker-1/ });
    await builder.getByRole('button', { name: '@identity' }).click();
    const search = builder.getByLabel('Search fields');
    await search.fill('podIP');
    await search.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tree');
    await page.keyboard.press('Space');
    const podIP = builder.getByRole('treeitem', { name: 'status.podIP', exact: true });
    await expect.poll(() => podIP.getAttribute('aria-checked')).toBe('true');
    const paths = ['metadata.name', 'metadata.namespace', 'metadata.ownerReferences', 'metadata.uid', 'spec.nodeName', 'status.podIP'];
    await expect.poll(() => builder.getByLabel('Mask text').inputValue()).toBe(paths.join(','));
    await search.fill('');
    await expect.poll(() => builder.getByRole('treeitem', { name: 'status', exact: true }).getAttribute('aria-checked')).toBe('mixed');
    await builder.getByText(/^Keeps /).waitFor();
    await shot('mask-builder');
    await builder.getByRole('button', { name: 'Apply mask' }).click();
    await builder.waitFor({ state: 'detached' });

    const grid = page.getByRole('grid', { name: 'Pods' });
    const cells = grid.getByRole('row').nth(1).getByRole('gridcell');
    await expect.poll(() => cells.nth(2).getByLabel(/^Not selected: left out by the mask metadata\.name,/).count()).toBe(1);
    for (const column of [3, 4, 5]) expect(await cells.nth(column).textContent()).toBe('⊘');
    expect(await cells.nth(1).textContent()).not.toBe('⊘');
    expect(await cells.nth(6).textContent()).not.toBe('⊘');
    await shot('masked-table');
    // Applying the mask asked the kubelet again: once live, the table holds what the simulator holds.
    await expect.poll(() => page.getByLabel(/^Node worker-1:/).getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/live/i);
    await expect.poll(() => grid.getAttribute('aria-rowcount'), { timeout: 10_000 }).toBe(String(sim!.store.size + 1));

    await page.getByRole('button', { name: /Export/ }).first().click();
    await page.getByRole('dialog').getByText(/^Masked export/).waitFor();
    const path = join(work, 'worker-1-masked.json');
    await page.getByLabel('Export file path').fill(path);
    await page.getByRole('dialog').getByRole('button', { name: /^(Export|Save)/ }).click();
    await expect.poll(() => { try { return JSON.parse(readFileSync(path, 'utf8')).kind; } catch { return undefined; } }, { timeout: 10_000 }).toBe('List');
    const items = (JSON.parse(readFileSync(path, 'utf8')) as { items: Record<string, unknown>[] }).items;
    expect(items).toHaveLength(sim!.store.size);
    const byUid = new Map(sim!.store.list().map((p) => [(p.metadata as PodObject).uid as string, p]));
    for (const { apiVersion, kind, ...pod } of items) {
      expect([apiVersion, kind]).toEqual(['v1', 'Pod']);
      const meta = pod.metadata as PodObject;
      const source = byUid.get(meta.uid as string)!;
      const sourceMeta = source.metadata as PodObject;
      // Exactly the selected fields, each as the kubelet has it: nothing else, nothing zero-filled.
      expect(Object.keys(pod).sort()).toEqual(['metadata', 'spec', 'status']);
      expect(meta).toEqual({ name: sourceMeta.name, namespace: sourceMeta.namespace, uid: sourceMeta.uid, ...(sourceMeta.ownerReferences ? { ownerReferences: sourceMeta.ownerReferences } : {}) });
      expect(pod.spec).toEqual({ nodeName: (source.spec as PodObject).nodeName });
      const ip = (source.status as PodObject).podIP;
      expect(pod.status).toEqual(ip ? { podIP: ip } : {});
    }
  });

  it('adds a Pods API socket on this machine from the Add node dialog and shows its pods live', async () => {
    const socketPath = join(work, 'local.sock');
    const local = await startSimulatedKubelet({ socketPath, pods: 7, seed: 17, nodeName: 'local-1' });
    try {
      // The export dialog of the test before may still be open.
      while (await page.getByRole('dialog').count()) await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Add node' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add node' });
      await dialog.getByRole('radio', { name: /^On this machine/ }).check();
      // No SSH fields for a socket on this machine.
      expect(await dialog.getByLabel('Host', { exact: true }).count()).toBe(0);
      const path = dialog.getByLabel('Pods API socket', { exact: true });
      await path.fill('local.sock');
      await dialog.getByRole('button', { name: 'Add and connect' }).click();
      // A relative path is refused at the field, with the example of an absolute one.
      await dialog.getByText(/^The socket path must be absolute/).waitFor();
      await path.fill(socketPath);
      await dialog.getByLabel('Display name', { exact: true }).fill('local-1');
      await shot('add-node-local');
      await dialog.getByRole('button', { name: 'Add and connect' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByLabel(/^Node local-1:/).getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/live/i);
      await expect.poll(() => page.getByRole('grid', { name: 'Pods' }).getAttribute('aria-rowcount'), { timeout: 10_000 }).toBe(String(local.store.size + 1));
    } finally {
      await local.stop();
    }
  });
});
