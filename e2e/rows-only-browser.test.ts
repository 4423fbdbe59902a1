// A rows-only node in the browser (docs/app.md, "Rows-only nodes"): two simulated kubelets on local sockets,
// the app set to keep rows only above one node, the built renderer in Chromium. The node says it keeps rows
// only, and a pod opened shows its JSON, read from the node, with a note that says so.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodObject } from '../app/pod/pod-tree';
import type { SimulatedKubelet } from '../app/sim/kubelet-server';
import { kubeletsInChromium } from './testing/kubelets-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');
const NODES = ['rows-a', 'rows-b'];

let kubelets: SimulatedKubelet[] = [];
let ui: Awaited<ReturnType<typeof kubeletsInChromium>> | undefined;
let page: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  ui = await kubeletsInChromium(NODES, { pods: 12, seed: 31, settings: { rowsOnlyAbove: 1 } });
  ({ kubelets, page } = ui);
}, 180_000);

afterAll(async () => {
  await ui?.close();
});

describe('a node that keeps rows only', () => {
  it('says so, and opens a pod read from the node: its JSON and a note saying where it came from', async () => {
    const sidebar = page.getByRole('navigation', { name: 'Nodes' });
    await sidebar.getByText('2 nodes keep rows only: a pod you open is read from its node then.').waitFor({ timeout: 60_000 });
    await sidebar.getByText(/rows-a\.sock/).click();
    await page.locator('.node-heading').getByText('rows only', { exact: true }).waitFor();

    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.getByRole('row').nth(1).click();
    await page.keyboard.press('Enter');
    const detail = page.locator('section.pod-detail');
    await detail.waitFor();
    await detail.getByRole('note').getByText(/Read from the node when opened, .*: this node keeps rows only/).waitFor();

    await detail.getByRole('tab', { name: 'JSON' }).click();
    const [namespace, name] = (await detail.getAttribute('aria-label'))!.replace(/^Pod /, '').split('/') as [string, string];
    const pod = kubelets[0]!.store.list().find((p) => (p.metadata as PodObject).name === name && (p.metadata as PodObject).namespace === namespace);
    expect(pod, `${namespace}/${name} on the node`).toBeDefined();
    const uid = String((pod!.metadata as PodObject).uid);
    await expect.poll(() => detail.locator('.json-view').textContent()).toContain(uid);
    await page.screenshot({ path: join(artifacts, 'rows-only-pod.png') });

    // The history says it is not kept here, and why, rather than showing an empty one.
    await detail.getByRole('tab', { name: 'History' }).click();
    await detail.getByText(/Pod history is not kept for .*rows-a\.sock: it keeps rows only/).waitFor();
  }, 120_000);
});
