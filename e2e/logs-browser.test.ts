// The Logs tab in browser mode against real components: the demo node's simulated kubelet writing CRI log
// files, the app core reading them, the browser-mode server and the built renderer in Chromium.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../app/host/host';
import type { UiServer } from '../app/ui-server/ui-server';
import { detachedCall } from '../app/contract';
import type { PodObject } from '../app/pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../app/sim/kubelet-server';
import { restartContainer } from '../app/sim/pod-changes';
import { containerStatuses } from '../app/sim/pod-status';
import { Prng } from '../app/sim/prng';
import { startSimContainerLogs, type SimContainerLogs } from '../app/sim/sim-container-logs';
import { openUiInChromium } from './testing/ui-in-chromium';

const artifacts = resolve(import.meta.dirname, 'artifacts');
let inspector: Host;
let server: UiServer;
let browser: BrowserContext;
let page: Page;
let big: SimulatedKubelet;
let crashy: SimulatedKubelet;
let crashyLogs: SimContainerLogs;
let logsDir: string;
let work: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'ns-e2e-logs-'));
  // A socket on this machine too, whose pod logs are in a folder of the test's (podLogsDir).
  logsDir = join(work, 'pods');
  big = await startSimulatedKubelet({ socketPath: join(work, 'big.sock'), pods: 5, seed: 3 });
  // A node whose containers write their logs (into the same podLogsDir), and crash when the test says.
  crashy = await startSimulatedKubelet({ socketPath: join(work, 'crashy.sock'), pods: 20, seed: 11 });
  crashyLogs = startSimContainerLogs(crashy.store, { dir: logsDir, seed: 11, intervalMs: 300 });
  inspector = await createHost({ mode: 'browser', stateDir: join(work, 'state'), demo: true, defaultExportDir: work, podLogsDir: logsDir });
  ({ server, browser, page } = await openUiInChromium(inspector, join(work, 'chromium')));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inspector?.close();
  await big?.stop();
  crashyLogs?.stop();
  await crashy?.stop();
});

/** Seeds of the crashes: each its own, so each new container gets an ID of its own. */
let seeds = 1;

/** A running container of the crashy node crashes and runs again: its pod's name and the container's. */
function crash(): { uid: string; name: string; container: string } {
  for (const uid of crashy.store.uids()) {
    const pod = crashy.store.get(uid)!;
    const only = containerStatuses(pod).length === 1 ? containerStatuses(pod)[0]! : undefined;
    if (!(only?.state as PodObject | undefined)?.running) continue;
    // A seed whose restart leaves it running, so a follow of the new instance sees lines.
    for (let tries = 0; tries < 50; tries++) {
      const next = restartContainer(pod, new Prng(seeds++), Date.now());
      if (!next || !(containerStatuses(next)[0]!.state as PodObject).running) continue;
      crashy.store.apply({ op: 'update', pod: next });
      return { uid, name: String((pod.metadata as PodObject).name), container: String(only!.name) };
    }
  }
  throw new Error('no running single-container pod to crash');
}

async function openPod(node: RegExp, name: string): Promise<void> {
  await page.getByLabel(node).click();
  await page.getByLabel('Filter pods').fill(name);
  const grid = page.getByRole('grid', { name: 'Pods' });
  await expect.poll(() => grid.getByRole('row').count()).toBe(2);
  await grid.getByRole('row').nth(1).click();
  await page.keyboard.press('l');
}

describe('Logs tab', () => {
  it("opens with l on a selected pod, shows its log lines, and highlights a searched word", async () => {
    // The follows the page starts, seen from the app core's side: each one its window cancels is noted.
    const cancelled: unknown[] = [];
    const follow = inspector.handlers['logs.follow'];
    inspector.handlers['logs.follow'] = (input, call) => {
      call.signal.addEventListener('abort', () => cancelled.push(call.signal.reason), { once: true });
      return follow(input, call);
    };
    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.waitFor();
    await grid.getByRole('row').filter({ hasText: 'Running' }).first().click();
    await page.keyboard.press('l');
    const detail = page.locator('section.pod-detail');
    await expect.poll(() => detail.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
    const log = detail.getByRole('region', { name: 'Container log' });
    const first = log.locator('.log-line').first();
    await first.waitFor();
    // A word of a line the node wrote, searched for: every match is marked, and the count says how many. (The
    // simulated containers print empty lines too: the first line with a word is taken.)
    const shown = await log.locator('.log-line').allTextContents();
    const word = shown.map((t) => /[A-Za-z]{4,}/.exec(t)?.[0]).find((w) => w !== undefined);
    expect(word, 'a word in the log lines shown').toBeDefined();
    await detail.getByLabel('Find in log').fill(word!);
    await expect.poll(() => detail.locator('.match-count').textContent()).toMatch(/^1\/\d+$/);
    const marked = log.locator('mark').first();
    await marked.waitFor();
    expect((await marked.textContent())!.toLowerCase()).toBe(word!.toLowerCase());
    await page.screenshot({ path: join(artifacts, 'logs-tab.png') });

    // Closing the pod stops its follow in the app core, not only on the page: the window cancels it.
    const before = cancelled.length;
    await page.getByRole('button', { name: 'Close pod detail' }).click();
    await expect.poll(() => cancelled.length).toBe(before + 1);
  }, 60_000);

  it('scrolls a log of 100,000 lines, drawing only the lines in view', async () => {
    const pod = big.store.list()[0]!;
    const meta = pod.metadata as PodObject;
    const line = (i: number) => `2026-11-27T10:00:00.${String(i).padStart(9, '0')}Z stdout F line ${i} of the big log\n`;
    const text = Array.from({ length: 100_000 }, (_, i) => line(i + 1)).join('');
    for (const c of (pod.spec as PodObject).containers as PodObject[]) {
      const dir = join(logsDir, `${meta.namespace}_${meta.name}_${meta.uid}`, String(c.name));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '0.log'), text);
    }
    await inspector.handlers['nodes.add']({ kind: 'unix', socketPath: join(work, 'big.sock'), label: 'big-logs' }, detachedCall());
    await page.getByLabel(/^Node big-logs:/).click();
    await page.getByLabel('Filter pods').fill(String(meta.name));
    const grid = page.getByRole('grid', { name: 'Pods' });
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);
    await grid.getByRole('row').nth(1).click();
    await page.keyboard.press('l');
    const detail = page.locator('section.pod-detail');
    await detail.getByLabel('Lines', { exact: true }).selectOption('100000');
    await detail.getByLabel('Find in log').fill('line 100000 of');
    await expect.poll(() => detail.locator('.match-count').textContent(), { timeout: 30_000 }).toBe('1/1');
    const log = detail.getByRole('region', { name: 'Container log' });
    await log.locator('mark').filter({ hasText: 'line 100000 of' }).waitFor();
    await detail.getByLabel('Find in log').fill('line 1 of');
    await log.locator('mark').filter({ hasText: 'line 1 of' }).waitFor();
    expect(await log.locator('.log-line').count()).toBeLessThan(200);
    expect(await log.evaluate((el) => el.scrollHeight)).toBeGreaterThan(100_000 * 17);
  }, 90_000);

  it('says so, and why, for a pod with no log on the node', async () => {
    // After the test above: big-logs is shown, and only its first pod has log files.
    const meta = big.store.list()[1]!.metadata as PodObject;
    await page.getByLabel('Filter pods').fill(String(meta.name));
    const grid = page.getByRole('grid', { name: 'Pods' });
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);
    await grid.getByRole('row').nth(1).click();
    await page.keyboard.press('l');
    const said = page.locator('section.pod-detail .log-unavailable');
    await said.waitFor();
    expect(await said.textContent()).toBe(`No container of pod ${meta.namespace}/${meta.name} has a log on this machine.A container that has not started yet has none; or the kubelet writes logs somewhere other than ${logsDir}.`);
  }, 60_000);

  it("reads a crashed container's previous instance, searches its last lines, then follows the current one", async () => {
    await inspector.handlers['nodes.add']({ kind: 'unix', socketPath: join(work, 'crashy.sock'), label: 'crashy' }, detachedCall());
    const { name } = crash();
    await openPod(/^Node crashy:/, name);
    const detail = page.locator('section.pod-detail');
    const log = detail.getByRole('region', { name: 'Container log' });
    await detail.getByLabel('Previous', { exact: true }).check();
    await expect.poll(() => log.locator('.log-line').allTextContents(), { timeout: 30_000 }).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
    await detail.getByLabel('Find in log').fill('panic');
    await expect.poll(() => detail.locator('.match-count').textContent()).toMatch(/^1\/\d+$/);
    expect(await log.locator('mark').first().textContent()).toBe('panic');
    await detail.getByLabel('Find in log').fill('');

    // The current instance, followed: the lines it writes after the tab opened arrive.
    await detail.getByLabel('Previous', { exact: true }).uncheck();
    await expect.poll(() => detail.getByLabel('Follow').isChecked()).toBe(true);
    await log.locator('.log-line').first().waitFor();
    const before = (await log.locator('.log-line').allTextContents()).join('\n');
    await expect.poll(async () => (await log.locator('.log-line').allTextContents()).join('\n') !== before, { timeout: 30_000 }).toBe(true);
    await page.getByRole('button', { name: 'Close pod detail' }).click();
  }, 90_000);

  it('a recording made in the app shows the last lines before a crash, marked as captured, after the node removed them', async () => {
    const nodeId = (await inspector.handlers['nodes.list']({}, detachedCall())).find((n) => n.label === 'crashy')!.id;
    const file = join(work, 'crash.recording');
    await inspector.handlers['recording.start']({ nodeId, path: file }, detachedCall());
    const { uid, name, container } = crash();
    await expect.poll(() => readFileSync(file, 'utf8').includes('"type":"LOG"'), { timeout: 30_000 }).toBe(true);
    await inspector.handlers['recording.stop']({ nodeId }, detachedCall());
    // The node's garbage collection takes the log of the instance that ended.
    const ended = Number(containerStatuses(crashy.store.get(uid)!)[0]!.restartCount) - 1;
    rmSync(join(logsDir, `${String((crashy.store.get(uid)!.metadata as PodObject).namespace)}_${name}_${uid}`, container, `${ended}.log`));

    await inspector.handlers['sources.open']({ paths: [file] }, detachedCall());
    await openPod(/^Node crash\.recording:/, name);
    const detail = page.locator('section.pod-detail');
    const log = detail.getByRole('region', { name: 'Container log' });
    await expect.poll(() => detail.locator('.log-unavailable').textContent()).toMatch(/was running at .*: a recording keeps the end of an instance's log once it ends/);
    await detail.getByLabel('Previous', { exact: true }).check();
    await expect.poll(() => detail.locator('.log-captured').textContent()).toMatch(/^Captured at the crash: the end of instance \d+'s log, kept by the recording when it ended \((Error|OOMKilled), exit code \d+\)/);
    await expect.poll(() => log.locator('.log-line').allTextContents()).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
    await page.screenshot({ path: join(artifacts, 'logs-captured.png') });
  }, 90_000);

  it("a crash-looping pod's History tab shows the last lines before each restart, kept after the node removed them", async () => {
    const nodeId = (await inspector.handlers['nodes.list']({}, detachedCall())).find((n) => n.label === 'crashy')!.id;
    const { uid, name, container } = crash();
    const ended = Number(containerStatuses(crashy.store.get(uid)!)[0]!.restartCount) - 1;
    // Kept by the app while it watched, then the node's garbage collection takes the file.
    await expect.poll(async () => (await inspector.handlers['pods.history']({ nodeId, uid }, detachedCall())).crashLogs?.some((l) => l.instance === ended), { timeout: 30_000 }).toBe(true);
    rmSync(join(logsDir, `${String((crashy.store.get(uid)!.metadata as PodObject).namespace)}_${name}_${uid}`, container, `${ended}.log`));

    await openPod(/^Node crashy:/, name);
    const detail = page.locator('section.pod-detail');
    await detail.getByRole('tab', { name: 'History' }).click();
    const timeline = detail.getByRole('list', { name: /^Pod versions, newest first/ });
    const entry = timeline.getByRole('button', { name: new RegExp(`LOG ?container ${container} \\(instance ${ended}\\) restarted: (Error|OOMKilled), exit code \\d+ · its last \\d+ lines? kept`) });
    await entry.click();
    const kept = detail.getByRole('region', { name: `Last lines of ${container}, instance ${ended}` });
    await expect.poll(() => kept.locator('.kept-log').textContent(), { timeout: 15_000 }).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
    // The entry sits right above the version that brought the restart.
    const items = await timeline.getByRole('listitem').allTextContents();
    const at = items.findIndex((t) => t.includes(`(instance ${ended}) restarted`));
    expect(items[at + 1]).toMatch(/MODIFIED.*restarted \(\d+ restarts?\)/);
    await page.screenshot({ path: join(artifacts, 'history-kept-log.png') });

    // The Logs tab's previous reads the same kept lines, saying where they come from.
    await detail.getByRole('tab', { name: 'Logs' }).click();
    await detail.getByLabel('Previous', { exact: true }).check();
    await expect.poll(() => detail.locator('.log-captured').textContent()).toMatch(new RegExp(`^Captured at the crash: the end of instance ${ended}'s log, kept by the pod's history when it ended \\(the node no longer has the file\\)`));
    await expect.poll(() => detail.getByRole('region', { name: 'Container log' }).locator('.log-line').allTextContents()).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
    await page.getByRole('button', { name: 'Close pod detail' }).click();
  }, 90_000);
});
