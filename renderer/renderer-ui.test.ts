import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The renderer in real Chromium, on the design preview (renderer/dev): the real hub over in-memory
 * simulated sources. What the user does with the UI itself — filter, sort, keyboard, detail, history,
 * dialogs. The full path through SSH and the kubelet is e2e/'s job.
 */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'nodescope-renderer-ui-'));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
let server: Server;
let browser: Browser;
let base = '';

beforeAll(async () => {
  await build({ configFile: join(projectRoot, 'vite.config.ts'), mode: 'preview', logLevel: 'silent', build: { outDir, emptyOutDir: true, sourcemap: false } });
  server = createServer(async (req, res) => {
    const file = normalize(join(outDir, decodeURIComponent((req.url ?? '/').split('?')[0]!)));
    if (!file.startsWith(outDir)) return void res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/dev/preview.html`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(outDir, { recursive: true, force: true });
});

async function open(query = 'events=0'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // A CSP violation shows up as a console error: none may happen.
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${base}?${query}`);
  await page.getByRole('row').nth(1).waitFor();
  return { page, errors };
}

const cellTexts = (page: Page, column: string) => page.locator(`[role=row][data-uid] .${column}`).allTextContents();

describe('renderer in Chromium (preview: the hub over in-memory sources)', () => {
  it('filters with the filter language and sorts by a column', async () => {
    const { page, errors } = await open();
    const total = Number((await page.locator('.pods-foot').textContent())!.match(/(\d+) pods/)![1]);
    expect(total).toBeGreaterThan(200);
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('ns:kube-system is:static');
    await expect.poll(() => cellTexts(page, 'c-ns')).toEqual(['kube-system', 'kube-system', 'kube-system', 'kube-system']);
    expect(await cellTexts(page, 'c-static')).toEqual(['static', 'static', 'static', 'static']);
    await expect.poll(() => page.locator('.pods-foot').textContent()).toBe(`4 of ${total} pods`);

    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('ns:shop colour:red');
    await expect(page.getByRole('alert').filter({ hasText: 'Unknown filter "colour:"' }).isVisible()).resolves.toBe(true);

    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('');
    await page.getByRole('button', { name: 'Sort by Restarts' }).click();
    expect(await page.getByRole('columnheader', { name: 'Sort by Restarts' }).getAttribute('aria-sort')).toBe('descending');
    const restarts = (await cellTexts(page, 'c-num')).map(Number);
    expect(restarts).toEqual([...restarts].sort((a, b) => b - a));
    expect(restarts[0]).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is driven by the keyboard: / to filter, arrows, Enter to open, Esc to close', async () => {
    const { page } = await open();
    await page.locator('body').press('/');
    await page.keyboard.type('ns:kube-system is:static');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    const selected = page.locator('[role=row][aria-selected=true]');
    const name = (await selected.locator('.c-name').textContent())!;
    expect(name).toMatch(/^(etcd|kube-[a-z-]+)-kind-worker$/);
    await page.keyboard.press('Enter');
    const detail = page.getByRole('region', { name: `Pod kube-system/${name}` });
    await detail.waitFor();
    await expect(detail.getByRole('region', { name: 'Containers' }).textContent()).resolves.toContain('registry.example.internal/');
    await expect(detail.getByRole('region', { name: 'Conditions' }).textContent()).resolves.toContain('PodScheduled');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    // Enter on a column header sorts by it (the grid's own keys do not swallow it).
    await page.getByRole('button', { name: 'Sort by Age' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.getByRole('columnheader', { name: 'Sort by Age' }).getAttribute('aria-sort')).toBe('ascending');
    await page.close();
  });

  it("opens Compare with… on c ready to type, titled with the open pod's name even once the pod is deleted", { timeout: 90_000 }, async () => {
    // The preview's node (seed 7) lists this pod as being deleted; it goes about 15 s after the list.
    const pod = 'search/orders-metrics-server-69fdxd2prg-8fhth';
    const { page, errors } = await open('events=1');
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill(pod.split('/')[1]!);
    await expect.poll(() => page.locator('[role=row][data-uid]').count()).toBe(1);
    await page.locator('[role=row][data-uid]').click();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('region', { name: `Pod ${pod}` });
    await detail.waitFor();
    const dialog = page.getByRole('dialog');
    await page.keyboard.press('c');
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe(`Compare ${pod} with…`);
    // What is typed goes to the picker's filter, not to the ✕ (where Enter would close the dialog).
    await page.keyboard.type('ns:kube-system etcd');
    await expect(dialog.getByRole('combobox', { name: 'Filter pods to compare with' }).inputValue()).resolves.toBe('ns:kube-system etcd');
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The detail stays on the deleted pod; comparing it still names it, as it was last known.
    await detail.getByText(/^deleted/).waitFor({ timeout: 60_000 });
    await page.keyboard.press('c');
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe(`Compare ${pod} with…`);
    await page.keyboard.type('ns:kube-system etcd');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByRole('heading').textContent()).toMatch(new RegExp(`^Compare ${pod} with kube-system/etcd-`));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('compares two sources as a job in the core, its pods that differ fetched a page at a time as the list scrolls', { timeout: 90_000 }, async () => {
    // 600 pods live against a recording of 60 others: more than one page (500) of pods that differ.
    const { page, errors } = await open('events=0&scale=2');
    await page.getByRole('button', { name: 'Compare…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compare sources' });
    await dialog.getByLabel('Left (before): source').selectOption({ label: 'kind-worker-incident.recording.ndjson (recording)' });
    await dialog.getByLabel('Right (after): source').selectOption({ label: 'Demo node (simulated) (live)' });
    await dialog.getByRole('button', { name: 'Compare', exact: true }).click();
    const result = dialog.getByRole('region', { name: 'Comparison result' });
    const counts = (await result.locator('.compare-counts').textContent({ timeout: 30_000 }))!;
    const [removed, added, changed] = [/(\d+) removed/, /(\d+) added/, /(\d+) changed/].map((re) => Number(re.exec(counts)![1]));
    const total = removed! + added! + changed!;
    expect(total).toBeGreaterThan(500);
    const entries = result.locator('.diff-entry');
    // One page until the list is scrolled to its end.
    expect(await entries.count()).toBe(500);
    await expect(result.locator('.compare-more').textContent()).resolves.toMatch(new RegExp(`^500 of ${total} pods that differ shown`));
    await result.locator('.compare-more').scrollIntoViewIfNeeded();
    await expect.poll(() => entries.count()).toBe(total);
    expect(await result.locator('.compare-more').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the open pod on the selected row as ↑/↓ move it, and switches its views with ←/→/Home/End', async () => {
    const { page, errors } = await open();
    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const names = await cellTexts(page, 'c-name');
    const namespaces = await cellTexts(page, 'c-ns');
    const detailOf = (i: number) => page.getByRole('region', { name: `Pod ${namespaces[i]}/${names[i]}` });
    await detailOf(0).waitFor();
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await detailOf(2).getByRole('heading', { name: names[2] }).waitFor();
    await expect(detailOf(2).getByRole('region', { name: 'Containers' }).textContent()).resolves.toBeTruthy();
    await page.keyboard.press('ArrowUp');
    await detailOf(1).waitFor();

    // One tab stop for the tab strip; the arrows move the selection and the focus together.
    const tabs = detailOf(1).getByRole('tab');
    const selectedTab = async () => {
      const active = await page.evaluate(() => document.activeElement?.textContent);
      const selected = await detailOf(1).getByRole('tab', { selected: true }).textContent();
      const stops = await tabs.evaluateAll((ts) => ts.filter((t) => (t as HTMLElement).tabIndex === 0).map((t) => t.textContent));
      expect(stops).toEqual([selected]);
      expect(active).toBe(selected);
      return selected;
    };
    await detailOf(1).getByRole('tab', { name: 'Summary' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await selectedTab()).toBe('JSON');
    await detailOf(1).getByRole('tabpanel', { name: 'JSON' }).getByRole('region', { name: 'Pod JSON' }).waitFor();
    await page.keyboard.press('End');
    expect(await selectedTab()).toBe('History');
    await page.keyboard.press('ArrowRight');
    expect(await selectedTab()).toBe('Summary');
    await page.keyboard.press('ArrowLeft');
    expect(await selectedTab()).toBe('History');
    await page.keyboard.press('Home');
    expect(await selectedTab()).toBe('Summary');
    // The view chosen stays as the selection moves on.
    await page.keyboard.press('ArrowRight');
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await detailOf(2).getByRole('tabpanel', { name: 'JSON' }).getByRole('region', { name: 'Pod JSON' }).waitFor();
    await expect(detailOf(2).getByRole('region', { name: 'Pod JSON' }).textContent()).resolves.toContain(`"name": "${names[2]}"`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the filter terms and keys on ? or the Help button, and gives the focus back on Esc', async () => {
    const { page } = await open();
    const grid = page.getByRole('grid', { name: 'Pods' });
    await grid.focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Filter and keys' });
    await help.waitFor();
    await expect(help.textContent()).resolves.toMatch(/label:k=v.*is:static.*Keys.*Filter pods.*This help/s);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Pods');

    // From the filter box, ? is text; the Help button is the next Tab stop.
    const filter = page.getByRole('searchbox', { name: 'Filter pods' });
    await filter.focus();
    await page.keyboard.type('a?');
    expect(await filter.inputValue()).toBe('a?');
    expect(await help.count()).toBe(0);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await help.waitFor();
    await help.getByRole('button', { name: 'Close dialog' }).click();
    await help.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Help/);
    await page.close();
  });

  it('is driven by keys like k9s: j/k to move, Enter to open, digits for views, Shift+letter to sort, : to go anywhere, ? lists them', async () => {
    const { page, errors } = await open();
    const names = await cellTexts(page, 'c-name');
    const namespaces = await cellTexts(page, 'c-ns');
    const detailOf = (i: number) => page.getByRole('region', { name: `Pod ${namespaces[i]}/${names[i]}` });
    // From the page itself, nothing focused: j selects the first pod, j again the second, Enter opens it.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await detailOf(1).waitFor();
    await page.keyboard.press('k');
    await detailOf(0).waitFor();
    await page.keyboard.press('2');
    await detailOf(0).getByRole('tab', { name: 'JSON', selected: true }).waitFor();

    await page.keyboard.press('Shift+T');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Sort by Restarts' }).getAttribute('aria-sort')).toBe('descending');
    await page.keyboard.press('Shift+T');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Sort by Restarts' }).getAttribute('aria-sort')).toBe('ascending');
    await page.keyboard.press('G');
    const lastName = (await cellTexts(page, 'c-name')).at(-1);
    await expect.poll(() => page.locator('[role=row][aria-selected=true] .c-name').textContent()).toBe(lastName);

    // In the filter box the keys are text.
    const filter = page.getByRole('searchbox', { name: 'Filter pods' });
    await filter.focus();
    await page.keyboard.type('jk:');
    expect(await filter.inputValue()).toBe('jk:');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await filter.fill('');
    await page.getByRole('grid', { name: 'Pods' }).focus();

    // : then part of a node's name, Enter: that node is shown.
    await page.keyboard.press(':');
    const palette = page.getByRole('dialog', { name: 'Go to or run' });
    await palette.waitFor();
    await page.keyboard.type('gpu-no');
    await expect.poll(() => palette.getByRole('option').allTextContents()).toEqual(['Node gpu-node-2']);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'gpu-node-2' }).waitFor();
    await palette.waitFor({ state: 'detached' });

    // A command, and Esc closes the palette without running anything.
    await page.keyboard.press(':');
    await page.keyboard.type('demo');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /Demo node/ }).waitFor();
    await page.keyboard.press(':');
    await page.keyboard.type('export');
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press(':');
    await page.keyboard.type('export');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Export pods' }).waitFor();
    // Focus on the dialog's first field, not on its ✕, where Enter would close it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('label')?.textContent ?? document.activeElement?.getAttribute('aria-label'))).toMatch(/^All pods on /);
    await page.keyboard.press('Escape');
    await page.keyboard.press('m');
    await page.getByRole('dialog', { name: /^Field mask for / }).waitFor();
    await page.keyboard.press('Escape');
    // r does what the Record button does: without a save dialog it asks where, Enter starts (the preview has
    // no files, and says so in the dialog).
    await page.keyboard.press('r');
    const record = page.getByRole('dialog', { name: /^Record / });
    await record.waitFor();
    await page.keyboard.press('Enter');
    await record.getByRole('alert').filter({ hasText: 'recording works in the app' }).waitFor();
    await page.keyboard.press('Escape');
    await record.waitFor({ state: 'detached' });

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Filter and keys' });
    await help.waitFor();
    const keys = await help.locator('kbd').allTextContents();
    expect(keys).toEqual(expect.arrayContaining(['j', 'k', 'g', 'Shift+G', ':', 'Shift+T', '1', 'e', 'r', 'm']));
    await expect(help.textContent()).resolves.toContain('Command palette');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('goes to a group of nodes from the : palette', { timeout: 60_000 }, async () => {
    const { page, errors } = await open('events=0&fleet=100');
    await page.getByRole('grid', { name: 'Pods' }).focus();
    await page.keyboard.press(':');
    const palette = page.getByRole('dialog', { name: 'Go to or run' });
    await palette.waitFor();
    await page.keyboard.type('group pool-b');
    await expect.poll(() => palette.getByRole('option').allTextContents()).toEqual(['Group pool-b (25)']);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '25 sources' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens the pod a double click started on, when the rows shift under the pointer between its clicks', async () => {
    const { page, errors } = await open();
    const rows = page.locator('[role=row][data-uid]');
    const first = { ns: (await rows.nth(0).locator('.c-ns').textContent())!, name: (await rows.nth(0).locator('.c-name').getAttribute('title'))! };
    await rows.nth(0).click();
    // The second click lands two rows down, as it would after pods were added above the first.
    const box = (await rows.nth(2).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down({ clickCount: 2 });
    await page.mouse.up({ clickCount: 2 });
    await page.getByRole('region', { name: `Pod ${first.ns}/${first.name.split('\n')[0]}` }).waitFor({ timeout: 10_000 });
    expect(await page.locator('[role=row][aria-selected=true]').getAttribute('data-uid')).toBe(await rows.nth(0).getAttribute('data-uid'));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the pod JSON with folding and search', async () => {
    const { page } = await open();
    const uid = (await page.getByRole('row').nth(1).getAttribute('data-uid'))!;
    await page.getByRole('row').nth(1).dblclick();
    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = page.getByRole('region', { name: 'Pod JSON' });
    await expect(json.textContent()).resolves.toContain('"apiVersion": "v1"');
    await page.getByRole('searchbox', { name: 'Find in JSON' }).fill(`"uid": "${uid}"`);
    await expect(page.locator('.match-count').textContent()).resolves.toBe('1/1');
    await page.getByRole('button', { name: 'Fold line 1', exact: true }).click();
    expect(await json.locator('.json-line').count()).toBeLessThan(3);
    await expect(page.getByRole('button', { name: /Unfold \d+ lines/ }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('adds a node from the SSH config after a host key decision, refusing bad input first', async () => {
    const { page } = await open();
    await page.getByRole('button', { name: 'Add node…' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add node' });
    await dialog.getByRole('option', { name: /gpu-node-2/ }).click();
    await dialog.getByRole('textbox', { name: 'Port', exact: true }).fill('99999');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();
    await expect(dialog.locator('.field-error').first().textContent()).resolves.toMatch(/65535/);
    await dialog.getByRole('textbox', { name: 'Port', exact: true }).fill('2222');
    await dialog.getByRole('button', { name: 'Add and connect' }).click();

    const hostKey = page.getByRole('dialog', { name: 'Unknown host key' });
    await expect(hostKey.getByLabel('Host key fingerprint').textContent()).resolves.toMatch(/^SHA256:/);
    await hostKey.getByRole('button', { name: 'Accept once' }).click();
    await page.getByRole('button', { name: /^Node gpu-node-2: Live$/ }).waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('gpu-node-2');
    await page.close();
  });

  it('removes a node with one click and brings it back, same spec, with Undo from the keyboard', async () => {
    const { page, errors } = await open();
    await page.getByRole('button', { name: 'Remove gpu-node-2' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Removed gpu-node-2' }).isVisible()).resolves.toBe(true);
    expect(await page.getByRole('button', { name: /^Node gpu-node-2:/ }).count()).toBe(0);
    // The ✕ went away with its node: Undo has the focus, so Enter takes the removal back.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Undo');
    await page.keyboard.press('Enter');
    // It comes back as a new connection to the same host (the fake core asks about its key again).
    await page.getByRole('dialog', { name: 'Unknown host key' }).getByRole('button', { name: 'Accept once' }).click();
    await page.getByRole('button', { name: /^Node gpu-node-2: Live$/ }).waitFor();
    expect(await page.getByRole('button', { name: /^Node gpu-node-2:/ }).getAttribute('title')).toBe('gpu-node-2');
    expect(await page.locator('.undo-toast').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits a node in place from the sidebar: prefilled, Esc changes nothing, saving moves it to its new group under the same id', async () => {
    const { page, errors } = await open('events=0&fleet=4');
    const sidebar = page.getByRole('navigation', { name: 'Nodes' });
    const node = sidebar.getByRole('button', { name: /^Node worker-001:/ });
    const id = await node.getAttribute('data-testid');
    await page.getByRole('list', { name: 'Group pool-a' }).getByRole('button', { name: /^Node worker-001:/ }).waitFor();

    // From the keyboard; Esc leaves the node as it was.
    await sidebar.getByRole('button', { name: 'Edit worker-001' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit node' });
    await expect(dialog.getByRole('radio', { name: /On this machine/ }).isChecked()).resolves.toBe(true);
    await expect(dialog.getByRole('textbox', { name: 'Pods API socket' }).inputValue()).resolves.toBe('/run/fleet/1.sock');
    await expect(dialog.getByRole('textbox', { name: 'Group' }).inputValue()).resolves.toBe('pool-a');
    await dialog.getByRole('textbox', { name: 'Group' }).fill('canary');
    // Said before saving: another machine's node does not keep this one's history.
    const clears = dialog.getByRole('note').filter({ hasText: "saving clears this node's pod history" });
    expect(await clears.count()).toBe(0);
    await dialog.getByRole('radio', { name: /On a node, over SSH/ }).check();
    await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill('worker-9');
    await clears.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('list', { name: 'Group pool-a' }).getByRole('button', { name: /^Node worker-001:/ }).waitFor();
    expect(await page.getByRole('list', { name: 'Group canary' }).count()).toBe(0);

    await sidebar.getByRole('button', { name: 'Edit worker-001' }).click();
    await dialog.getByRole('textbox', { name: 'Group' }).fill('canary');
    await dialog.getByRole('button', { name: 'Save and reconnect' }).click();
    await dialog.waitFor({ state: 'detached' });
    const moved = page.getByRole('list', { name: 'Group canary' }).getByRole('button', { name: /^Node worker-001:/ });
    await moved.waitFor();
    expect(await moved.getAttribute('data-testid')).toBe(id);
    expect(await page.getByRole('list', { name: 'Group pool-a' }).count()).toBe(0);
    await expect(page.getByRole('status').filter({ hasText: 'Saved worker-001, reconnecting; its pod history is kept.' }).isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: /^Node worker-001: Live$/ }).waitFor();
    // Above its pods too, on the settings as saved.
    await moved.click();
    await page.getByRole('main').getByRole('button', { name: 'Edit…' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Group' }).inputValue()).resolves.toBe('canary');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('stops offering Undo after a few seconds, unless the pointer rests on it', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.clock.install();
    await page.goto(`${base}?events=0`);
    await page.getByRole('button', { name: 'Remove edge-7.prod' }).click();
    const toast = page.locator('.undo-toast');
    await toast.waitFor();
    await toast.hover();
    await page.clock.runFor(10_000);
    expect(await toast.isVisible()).toBe(true);
    await page.mouse.move(5, 5);
    await page.clock.runFor(5000);
    expect(await toast.isVisible()).toBe(true);
    await page.clock.runFor(1500);
    await toast.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: /^Node edge-7\.prod:/ }).count()).toBe(0);
    await page.close();
  });

  it('announces node state changes once, not the reconnect countdown, and the pod count at most every 5 s', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.clock.install();
    await page.goto(`${base}?events=0`);
    await page.getByRole('row').nth(1).waitFor();
    const liveRegions = () => page.locator('[role=status], [role=alert], [aria-live]:not([aria-live=off])').allTextContents();
    const spokenCount = page.getByRole('status').filter({ hasText: / pods$/ });
    const total = Number((await page.locator('.pods-foot').textContent())!.match(/(\d+) pods/)![1]);

    // edge-7.prod counts down to its next attempt every second: on screen, in no live region.
    await page.getByRole('button', { name: /^Node edge-7\.prod:/ }).click();
    await page.getByRole('heading', { level: 2, name: /Reconnecting in \d+s/ }).waitFor();
    await page.clock.runFor(2000);
    expect((await liveRegions()).filter((t) => /Reconnecting in/.test(t))).toEqual([]);
    await page.getByRole('button', { name: 'Connect gpu-node-2' }).click();
    await expect.poll(() => liveRegions()).toContain('gpu-node-2: Connecting');

    await page.getByRole('button', { name: /^Node Demo node \(simulated\):/ }).click();
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('ns:kube-system');
    await expect.poll(() => page.locator('.pods-foot').textContent()).toMatch(new RegExp(`^\\d+ of ${total} pods$`));
    const systemPods = (await page.locator('.pods-foot').textContent())!;
    await expect.poll(() => spokenCount.textContent()).toBe(systemPods);
    // Then a filter nothing matches: a count that surely differs from the one spoken.
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('ns:kube-system no-pod-is-named-so');
    const noPod = `0 of ${total} pods`;
    // The page's frames and timers run on the installed clock: step it a frame at a time (far below the 5 s
    // the spoken count waits) until the table has re-rendered, however long that takes on a loaded machine.
    await expect.poll(async () => {
      const shown = await page.locator('.pods-foot').textContent();
      if (shown !== noPod) await page.clock.runFor(16);
      return shown;
    }, { timeout: 30_000 }).toBe(noPod);
    expect(await spokenCount.textContent()).toBe(systemPods);
    await page.clock.runFor(5000);
    // Rendering after the clock moved takes real time, a lot of it on a loaded machine, and a timer the page set
    // while it was busy may fall due only later: the clock keeps moving on until the new count is spoken.
    await expect.poll(async () => {
      const spoken = await spokenCount.textContent();
      if (spoken !== noPod) await page.clock.runFor(1000);
      return spoken;
    }, { timeout: 30_000 }).toBe(noPod);
    await page.close();
  });

  it("shows a failed node's cause and next step in its panel, with a way to connect again", async () => {
    const { page } = await open();
    await page.getByRole('button', { name: /^Node gpu-node-2:/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Connection failed' }).waitFor();
    await expect(page.locator('.state-cause').textContent()).resolves.toBe('Permission denied opening /var/lib/kubelet/pods-api/pods-api.sock');
    await expect(page.getByText('edit the node (Edit…) and tick “Use sudo to reach the sockets”', { exact: false }).last().isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('button', { name: /^Node gpu-node-2: Connecting/ }).waitFor();
    await page.close();
  });

  it('shows the pods of a node that sent pods it cannot show, with a notice naming each one', async () => {
    const why = 'left out a pod that does not decode: cannot decode pod shop/cart-0 (ListPods pods[3] at byte 9120, uid 4f1c): truncated varint at byte offset 812';
    const { page } = await open(`events=0&leftOut=${encodeURIComponent(why)}`);
    const notice = page.getByRole('alert').filter({ hasText: '1 pod is not shown' });
    await expect(notice.getByRole('listitem').allTextContents()).resolves.toEqual([why]);
    expect(await page.locator('[role=row][data-uid]').count()).toBeGreaterThan(10);
    await page.close();
  });

  it('validates the field mask as you type and applies it', async () => {
    const { page } = await open();
    const mask = page.getByRole('textbox', { name: 'Field mask' });
    await mask.fill('metadata..name');
    await expect.poll(() => mask.getAttribute('aria-invalid')).toBe('true');
    await expect(page.locator('#mask-message').textContent()).resolves.toContain('empty field name after "metadata"');
    await mask.fill('metadata.name,status.phase');
    await expect.poll(() => mask.getAttribute('aria-invalid')).toBe(null);
    await mask.press('Enter');
    await page.getByText('masked', { exact: true }).waitFor();
    await page.close();
  });

  it('exports the filtered pods', async () => {
    const { page } = await open();
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('ns:monitoring');
    const count = (await cellTexts(page, 'c-ns')).length;
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export pods' });
    await expect(dialog.getByRole('radio', { name: `The filtered pods (${count})` }).isChecked()).resolves.toBe(true);
    await dialog.getByRole('radio', { name: /NDJSON/ }).check();
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Export file path' }).inputValue()).toMatch(/\/Demo_node_simulated-\d{4}-\d\d-\d\dT\d{6}Z-pods\.ndjson$/);
    await dialog.getByRole('button', { name: `Export ${count} pods` }).click();
    // The export's progress shows first, then where the file went.
    await expect.poll(() => dialog.getByRole('status').textContent()).toContain(`Saved ${count} pods`);
    await page.close();
  });

  it('flashes rows that change and lists the change in the events feed', async () => {
    const { page, errors } = await open('events=20');
    await page.locator('.pod-row.flash').first().waitFor();
    await page.getByRole('list', { name: 'Event lines' }).getByRole('listitem').first().waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.getByRole('button', { name: /Resume \(\d+ new\)/ }).count()).toBe(1);
    // The feed writes times as every view does (history, detail, recordings): 24-hour local time, the zone said in its header.
    expect(await page.locator('.feed-time').first().textContent()).toMatch(/^(\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d$/);
    await expect(page.getByRole('region', { name: 'Live events' }).getByText(/^local time, UTC[+−]\d\d:\d\d$/).count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows an earlier version through the node\'s mask: what it left out marked, its JSON only the selected fields', async () => {
    const { page, errors } = await open();
    const mask = page.getByRole('textbox', { name: 'Field mask' });
    await mask.fill('metadata.name,metadata.namespace,metadata.uid');
    await mask.press('Enter');
    await page.getByText('masked', { exact: true }).waitFor();
    await page.locator('[role=row][data-uid]').first().dblclick();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('list', { name: 'Pod versions, newest first' }).getByRole('button').last().click();
    const version = page.getByRole('region', { name: /^Version of / });
    await expect.poll(() => version.getByRole('img', { name: /^Not selected/ }).count()).toBeGreaterThan(0);
    await version.getByRole('button', { name: 'JSON' }).click();
    const json = (await version.getByRole('region', { name: 'Pod JSON' }).textContent())!;
    expect(json).toContain('"uid": ');
    // Exactly the selected fields: no spec or status zero-filled for what the mask left out.
    expect(json).not.toMatch(/"(spec|status|labels)"/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a changed pod\'s history as a timeline and opens an earlier version as the detail', async () => {
    const { page, errors } = await open('events=20');
    const timeline = page.getByRole('list', { name: 'Pod versions, newest first' });
    // A flashing row can be a pod created since the list, with only its ADDED version so far:
    // open flashing rows until one is a listed pod that changed.
    const tried: string[] = [];
    let items: string[] = [];
    while (items.length < 2 || !/LISTED/.test(items.at(-1)!)) {
      expect(tried.length, `flashing rows opened, none a listed pod that changed: ${tried.join(', ')}`).toBeLessThan(8);
      if (tried.length > 0) {
        await page.keyboard.press('Escape');
        await timeline.waitFor({ state: 'detached' });
      }
      const flashing = page.locator(['.pod-row.flash:not(.deleting)[data-uid]', ...tried.map((uid) => `:not([data-uid="${uid}"])`)].join(''));
      const uid = (await flashing.first().getAttribute('data-uid'))!;
      tried.push(uid);
      // Rows shift as pods come and go above this one, and a click can land on its neighbour:
      // click until this pod is the selected row, then open it with Enter. A row that scrolled out of
      // the rendered window or went away meanwhile counts as one more try.
      const selected = await expect
        .poll(
          async () => {
            await page.locator(`.pod-row[data-uid="${uid}"]`).click({ timeout: 2000 });
            return page.locator(`[role=row][aria-selected=true][data-uid="${uid}"]`).count();
          },
          { timeout: 5000 },
        )
        .toBe(1)
        .then(
          () => true,
          () => false,
        );
      if (!selected) continue;
      await page.keyboard.press('Enter');
      await page.getByRole('tab', { name: 'History' }).click();
      await expect.poll(() => timeline.getByRole('listitem').count()).toBeGreaterThanOrEqual(1);
      items = await timeline.getByRole('listitem').allTextContents();
    }
    expect(items[0]).toMatch(/MODIFIED|DELETED/);
    // Written as the events feed writes it ("18:47:22"), not in the locale's "11/27/26, 6:47 PM".
    expect(await timeline.getByRole('button').first().locator('.mono').textContent()).toMatch(/^(\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d$/);
    await timeline.getByRole('button').last().click();
    const version = page.getByRole('region', { name: /^Version of / });
    await version.getByRole('region', { name: 'Containers' }).waitFor();
    await version.getByRole('button', { name: 'JSON' }).click();
    await expect(version.getByRole('region', { name: 'Pod JSON' }).textContent()).resolves.toContain('"kind": "Pod"');

    // Two versions compared: every noise rule listed (the same list as source against source), and
    // resourceVersion, hidden as noise, neither highlighted nor where Next stops.
    await page.getByRole('button', { name: 'Compare versions' }).click();
    const compared = page.getByRole('region', { name: 'Two versions compared' });
    const rules = compared.getByRole('group', { name: 'Hidden as noise' });
    await expect.poll(() => rules.getByRole('checkbox').count()).toBe(5);
    expect(await rules.getByRole('checkbox', { name: 'resource version' }).isChecked()).toBe(true);
    await compared.locator('.diff-row').first().waitFor();
    expect(await compared.locator('code.added, code.removed').allTextContents()).not.toContainEqual(expect.stringContaining('"resourceVersion"'));
    await compared.getByRole('button', { name: '↓ Next' }).click();
    expect(await compared.locator('.diff-row.current').allTextContents()).not.toContainEqual(expect.stringContaining('"resourceVersion"'));
    await page.getByRole('button', { name: 'Stop comparing' }).click();

    // Keeping no earlier versions trims this pod's, and the UI says so, here and on the node.
    await page.getByRole('button', { name: 'Limits…' }).click();
    const limits = page.getByRole('form', { name: 'History limits' });
    await limits.getByLabel('Versions per pod').fill('0');
    await limits.getByRole('button', { name: 'Apply to all sources' }).click();
    await expect.poll(() => page.locator('.history-note').textContent()).toMatch(/earlier versions? trimmed \(keeps 0 per pod\)/);
    await page.locator('.node-heading').getByText('history trimmed').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a recording offline with a time scrubber: the pod set at the start, never live', async () => {
    const { page, errors } = await open();
    const node = page.getByRole('button', { name: /^Node kind-worker-incident\.recording\.ndjson: Recording at/ });
    await node.click();
    await expect(page.locator('.node-heading .tag-offline').textContent()).resolves.toBe('offline recording · kind-worker · kind-worker-incident.recording.ndjson');
    expect(await page.getByRole('button', { name: '● Record' }).count()).toBe(0);
    const slider = page.getByRole('slider', { name: 'Time in the recording' });
    await slider.focus();
    await page.keyboard.press('Home');
    await expect.poll(() => slider.getAttribute('aria-valuetext')).toMatch(/\(\+0s\)$/);
    await expect.poll(() => page.locator('.pods-foot').textContent()).toBe('60 pods');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the sidebar usable with a hundred more nodes: counts by state, search, groups, one table over a group', { timeout: 90_000 }, async () => {
    const { page, errors } = await open('events=0&fleet=100');
    const counts = page.getByRole('group', { name: 'Nodes by state' });
    // The demo node, 100 fleet nodes, edge-7 reconnecting, gpu-node-2 failed, a recording offline.
    await expect.poll(() => counts.textContent()).toMatch(/101 live.*1 reconnecting.*1 failed.*1 offline/);
    await counts.getByRole('button', { name: /failed/ }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Nodes' }).locator('.node-label-text').allTextContents()).toEqual(['gpu-node-2']);
    await counts.getByRole('button', { name: /failed/ }).click();

    await page.getByRole('searchbox', { name: 'Search nodes' }).fill('pool-b');
    // The list is virtual: the group's heading counts its nodes, only those on screen are drawn.
    await page.getByRole('button', { name: /^pool-b, 25 nodes: 25 live$/ }).waitFor();
    await page.getByRole('list', { name: 'Group pool-b' }).getByRole('button', { name: /^Node worker-\d+: Live$/ }).first().waitFor();
    expect(await page.getByRole('list', { name: 'Group pool-a' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Include the group pool-b' }).click();
    await page.getByRole('heading', { name: '25 sources' }).waitFor();
    await page.getByRole('tab', { name: 'Pods (2750)' }).waitFor();
    await page.getByRole('searchbox', { name: 'Filter pods' }).fill('node:worker-002 ns:kube-system is:static');
    await expect.poll(() => cellTexts(page, 'c-node')).toEqual(['worker-002', 'worker-002', 'worker-002', 'worker-002']);
    await page.getByRole('searchbox', { name: 'Search nodes' }).fill('');
    await page.getByRole('tab', { name: /^Compare/ }).click();
    // Past 20 sources the matrix reads down the page: a row per source.
    const bySource = page.getByRole('table', { name: 'Sources by workload' });
    await bySource.waitFor();
    expect(await bySource.locator('tbody tr').count()).toBe(25);
    await page.getByLabel('Sources as rows').uncheck();
    const matrix = page.getByRole('table', { name: 'Workloads by source' });
    await matrix.waitFor();
    expect(await matrix.locator('thead th').count()).toBe(25 + 2);
    await page.getByLabel('Only drift').check();
    await expect.poll(() => matrix.locator('tbody tr:not(.drift)').count()).toBe(0);
    expect(await matrix.locator('tbody tr.drift').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws only the sources on screen when many are compared as rows, and scrolls to the last', { timeout: 120_000 }, async () => {
    const { page, errors } = await open('events=0&fleet=180');
    // Groups of 45: pool-a is worker-001, worker-005, ... worker-177. The nodes are added in time slices:
    // the group is included once all of it is live.
    await page.getByRole('button', { name: /^pool-a, 45 nodes: 45 live$/ }).waitFor();
    await page.getByRole('button', { name: 'Include the group pool-a' }).click();
    await page.getByRole('heading', { name: '45 sources' }).waitFor();
    await page.getByRole('tab', { name: /^Compare/ }).click();
    const bySource = page.getByRole('table', { name: 'Sources by workload' });
    await bySource.waitFor();
    const drawn = () => bySource.locator('tbody tr[data-source-row]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-source-row')));
    await expect.poll(async () => (await drawn())[0]).toBe('worker-001');
    // The status still counts every source; the table holds only those near the screen.
    await expect.poll(() => page.locator('.matrix-bar [role=status]').textContent()).toMatch(/over 45 sources/);
    expect((await drawn()).length).toBeLessThan(45);
    await page.locator('.matrix-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(async () => (await drawn()).at(-1)).toBe('worker-177');
    expect(await drawn()).not.toContain('worker-001');
    expect(errors).toEqual([]);
    await page.close();
  });
});
