// The whole browser mode against real components: OpenSSH on loopback in front of a simulated
// kubelet on a root-only socket, the app core, the browser-mode server, and the built renderer in
// Chromium. Screenshots of the main views go to e2e/artifacts/ (git-ignored).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInspector, type Inspector } from '../app/inspector/inspector';
import type { PodObject } from '../app/pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../app/sim/kubelet-server';
import { ensureRendererBuilt } from '../app/ui-server/renderer-build';
import { startUiServer, type UiServer } from '../app/ui-server/ui-server';
import { startSshHarness, type SshHarness } from './harness/ssh-harness';

const artifacts = resolve(import.meta.dirname, 'artifacts');
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let h: SshHarness;
let sim: SimulatedKubelet | undefined;
let inspector: Inspector;
let server: UiServer;
let browser: BrowserContext;
let page: Page;
let work: string;

const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'ns-e2e-browser-'));
  h = await startSshHarness({
    startKubelet: async (socketPath) => {
      sim = await startSimulatedKubelet({ socketPath, pods: 120, churnPerSecond: 4, seed: 5, nodeName: 'worker-1' });
      return { stop: () => sim!.stop() };
    },
  });
  // The machine's own ssh setup stays out: no agent, a known_hosts of our own that starts empty.
  const sshConfig = join(work, 'ssh_config');
  writeFileSync(sshConfig, `Host *\n  IdentityAgent none\n  UserKnownHostsFile ${join(work, 'known_hosts')}\n  GlobalKnownHostsFile /dev/null\n`);
  // A node list from an older, broken run: the app must start anyway and say what it did with it.
  mkdirSync(join(work, 'state'), { recursive: true });
  writeFileSync(join(work, 'state', 'nodes.json'), '{"version":1,"nodes":[');
  const rendererDir = await ensureRendererBuilt();
  inspector = await createInspector({ mode: 'browser', stateDir: join(work, 'state'), demo: false, sshConfigFile: sshConfig, defaultExportDir: work });
  server = await startUiServer({ core: inspector, rendererDir });
  // A fresh profile per run (Playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(join(work, 'chromium'), {
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(15_000);
  await page.goto(server.url);
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
    await page.getByRole('button', { name: 'Add node' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add node' });
    // Fields by their labels, as a user finds them (placeholders are examples that change).
    const fill = (label: string, value: string) => dialog.getByLabel(label, { exact: true }).fill(value);
    await fill('Host', h.host);
    await fill('Port', String(h.port));
    await fill('User', h.root.name);
    await fill('Identity file', h.root.key);
    await fill('Pods API socket', h.socketPath);
    await fill('Display name', 'worker-1');
    await shot('add-node');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();

    const question = page.getByRole('dialog', { name: 'Unknown host key' });
    await question.waitFor();
    await expect.poll(() => question.getByLabel('Host key fingerprint').textContent()).toMatch(/^SHA256:/);
    await shot('host-key');
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
    sim!.store.apply({ op: 'update', pod: { ...pod!, metadata: { ...meta, labels: { ...(meta.labels as PodObject), e2e: 'changed' } } } });
    await page.getByLabel('Live events').getByText(`${namespace}/${name}`).first().waitFor({ timeout: 10_000 });
    await detail.getByText('e2e').first().waitFor({ timeout: 10_000 });
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
    await expect.poll(firstStatus).toBe('—');
    await mask.fill('');
    await mask.press('Enter');
    await expect.poll(firstStatus).not.toBe('—');
  });

  it('exports the pods and the file reads back as a kubectl List', async () => {
    await page.getByRole('button', { name: /Export/ }).first().click();
    const path = join(work, 'worker-1-pods.json');
    await page.getByLabel('Export file path').fill(path);
    await shot('export');
    await page.getByRole('dialog').getByRole('button', { name: /^(Export|Save)/ }).click();
    await expect.poll(() => { try { return JSON.parse(readFileSync(path, 'utf8')).kind; } catch { return undefined; } }, { timeout: 10_000 }).toBe('List');
    const list = JSON.parse(readFileSync(path, 'utf8')) as { items: { metadata: { uid: string } }[] };
    const uids = (pods: { metadata?: unknown }[]) => pods.map((p) => (p.metadata as PodObject).uid as string).sort();
    expect(uids(list.items)).toEqual(uids(sim!.store.list()));
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
});
