// The Logs tab on a node read through the kubelet's REST API, in browser mode against real components: OpenSSH's
// sshd on loopback in front of the simulated kubelet's HTTPS API, whose /containerLogs reads the CRI files the
// simulator writes; the app core, the browser-mode server and the built renderer in Chromium.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../app/host/host';
import { detachedCall } from '../app/contract';
import { PINS_FILE_NAME, pinName, rememberPin } from '../app/kubelet-rest/kubelet-certificate-pins';
import type { PodObject } from '../app/pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../app/sim/kubelet-server';
import { restartContainer } from '../app/sim/pod-changes';
import { containerStatuses } from '../app/sim/pod-status';
import { Prng } from '../app/sim/prng';
import { startSimContainerLogs, type SimContainerLogs } from '../app/sim/sim-container-logs';
import type { UiServer } from '../app/ui-server/ui-server';
import { startSshHarness, type SshHarness } from './harness/ssh-harness';
import { openUiInChromium } from './testing/ui-in-chromium';

const TOKEN = 'tok-e2e-logs-0123456789';

let h: SshHarness;
let sim: SimulatedKubelet;
let logs: SimContainerLogs;
let inspector: Host;
let server: UiServer;
let browser: BrowserContext;
let page: Page;

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'ns-e2e-restlogs-'));
  const logDir = join(work, 'pods');
  h = await startSshHarness({
    startKubelet: async (socketPath) =>
      // No Pods API socket where Nodescope looks: the node is read through REST alone.
      (sim = await startSimulatedKubelet({ socketPath: join(dirname(socketPath), 'pods.sock'), pods: 12, seed: 23, rest: { tokens: { [TOKEN]: 'alice' }, logDir } })),
  });
  logs = startSimContainerLogs(sim.store, { dir: logDir, seed: 23, intervalMs: 300 });
  const tokenFile = join(work, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  const stateDir = join(work, 'state');
  // The serving certificate pinned beforehand: the question it would ask is host-rest.test.ts's.
  await rememberPin(join(stateDir, PINS_FILE_NAME), pinName(h.host, sim.rest!.port), sim.rest!.fingerprint);
  inspector = await createHost({ mode: 'browser', stateDir, demo: false, sshConfigFile: h.sshConfig });
  ({ server, browser, page } = await openUiInChromium(inspector, join(work, 'chromium')));
  await inspector.handlers['nodes.add']({ kind: 'ssh', host: 'target', api: 'rest', rest: { port: sim.rest!.port, tokenFile }, label: 'rest-node' }, detachedCall());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inspector?.close();
  logs?.stop();
  await h?.stop();
});

/** A running single-container pod's container crashes and runs again: its pod's identity and the container's. */
function crash(): { namespace: string; name: string; container: string } {
  for (let seed = 1; seed < 500; seed++) {
    const pod = sim.store.list().find((p) => containerStatuses(p).length === 1 && (containerStatuses(p)[0]!.state as PodObject).running);
    if (!pod) break;
    const next = restartContainer(pod, new Prng(seed), Date.now());
    if (!next || !(containerStatuses(next)[0]!.state as PodObject).running) continue;
    sim.store.apply({ op: 'update', pod: next });
    const m = pod.metadata as PodObject;
    return { namespace: String(m.namespace), name: String(m.name), container: String(containerStatuses(pod)[0]!.name) };
  }
  throw new Error('no running single-container pod to crash');
}

describe('Logs tab on a node read through the kubelet REST API', () => {
  it("reads the previous instance's last lines from /containerLogs, says where they came from, then follows the current one", async () => {
    const { namespace, name, container } = crash();
    await page.getByLabel(/^Node rest-node:/).click();
    await page.getByLabel('Filter pods').fill(name);
    const grid = page.getByRole('grid', { name: 'Pods' });
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 30_000 }).toBe(2);
    await grid.getByRole('row').nth(1).click();
    await page.keyboard.press('l');
    const detail = page.locator('section.pod-detail');
    const log = detail.getByRole('region', { name: 'Container log' });
    const from = detail.getByLabel('Where the lines come from');

    await detail.getByLabel('Previous', { exact: true }).check();
    await expect.poll(() => log.locator('.log-line').allTextContents(), { timeout: 30_000 }).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
    expect(await from.textContent()).toBe(`Read from the kubelet REST API: GET https://127.0.0.1:${sim.rest!.port}/containerLogs/${namespace}/${name}/${container}?previous=true&tailLines=1000`);

    // The current instance, followed through the kubelet's stream: lines written after the tab opened arrive.
    await detail.getByLabel('Previous', { exact: true }).uncheck();
    await expect.poll(() => detail.getByLabel('Follow').isChecked()).toBe(true);
    await expect.poll(() => from.textContent()).toContain(`/containerLogs/${namespace}/${name}/${container}?follow=true&tailLines=1000`);
    await log.locator('.log-line').first().waitFor();
    const before = (await log.locator('.log-line').allTextContents()).join('\n');
    await expect.poll(async () => (await log.locator('.log-line').allTextContents()).join('\n') !== before, { timeout: 30_000 }).toBe(true);
    expect(sim.rest!.requests.some((r) => r.path === `/containerLogs/${namespace}/${name}/${container}` && r.status === 200)).toBe(true);
    await page.screenshot({ path: join(import.meta.dirname, 'artifacts', 'logs-rest-tab.png') });
    await page.getByRole('button', { name: 'Close pod detail' }).click();
  }, 120_000);
});
