/**
 * The UI on a big, busy node against the same UI on a small one, in Chromium through browser mode:
 * `nodescope ui` in its own process (so its memory is its own), a simulated kubelet in another with 200
 * changes a second, the page in Debian's Chromium. Each figure at 30,000 pods is a ratio against the
 * same figure at 300 pods, measured in the same run:
 * - connect to first rows: from clicking Connect to the first row on screen;
 * - a filter keystroke to the table drawn with its result, and a click on a column to the table sorted;
 * - frames per second while idle (the churn still arriving) and while scrolling;
 * - the server's resident memory against the pods' protobuf bytes (what the kubelet sent), once all are
 *   shown and again at the end of the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createKubeletClient } from '../app/kubelet/kubelet-client';
import { ensureRendererBuilt } from '../app/ui-server/renderer-build';
import { buildCli } from '../scripts/build-cli';
import { figure } from './figures';
import { kubeletProcess } from './kubelet-spawn';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHURN_PER_SECOND = 200;
const LABEL = 'bench-node';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface UiFigures {
  connectMs: number;
  filterMs: number;
  sortMs: number;
  idleFps: number;
  scrollFps: number;
  serverRssBytes: number;
  /** The same at the end of the run, `laterS` seconds later, the churn still going. */
  laterRssBytes: number;
  laterS: number;
  protobufBytes: number;
}

/** `nodescope ui` with one remembered node (the socket), in its own process; resolves with its URL. */
async function startUi(work: string, socketPath: string): Promise<{ proc: ChildProcess; url: string }> {
  const state = join(work, 'config', 'nodescope');
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, 'nodes.json'), JSON.stringify({ version: 1, nodes: [], sources: [{ kind: 'unix', label: LABEL, socketPath }] }));
  const proc = spawn(process.execPath, [join(root, 'bin', 'nodescope.js'), 'ui', '--no-open', '--no-demo'], {
    env: { ...process.env, XDG_CONFIG_HOME: join(work, 'config') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((found, fail) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running at (\S+)/.exec(out);
      if (m) found(m[1]!);
    });
    proc.once('exit', (code) => fail(new Error(`nodescope ui exited (${code}) before serving`)));
  });
  return { proc, url };
}

/** Resident memory of a process, from /proc. */
function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

/** The pod count the table's footer shows ("30,000 pods", "12 of 30,000 pods"). */
const shownCount = async (page: Page) => Number(/([\d,]+) pods$/.exec((await page.locator('.pods-foot').textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0);

// The page's side is written as text: the bench runs through tsx, whose compiled functions call a
// helper (__name) that does not exist in the page.

/** Frames drawn in `ms`, per second; with `scroll`, the table scrolled a little every frame. */
const framesPerSecond = (page: Page, ms: number, scroll: boolean) =>
  page.evaluate(`new Promise((done) => {
    const el = document.querySelector('.pods-scroll');
    let frames = 0;
    const start = performance.now();
    function tick(now) {
      frames++;
      if (${scroll}) el.scrollTop = el.scrollTop + 120 >= el.scrollHeight - el.clientHeight ? 0 : el.scrollTop + 120;
      if (now - start < ${ms}) requestAnimationFrame(tick);
      else done((frames * 1000) / (now - start));
    }
    requestAnimationFrame(tick);
  })`) as Promise<number>;

/** From an input to the next frame drawn after React committed it: what the user waits for. */
const untilDrawn = (page: Page, action: 'filter' | 'sort', arg: string) =>
  page.evaluate(`new Promise((done) => {
    const start = performance.now();
    if (${JSON.stringify(action)} === 'filter') {
      const input = document.querySelector('.filter-input');
      // As typing does: the value through the native setter, then the input event React listens to.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(arg)});
      input.dispatchEvent(new Event('input', { bubbles: true }));
    } else document.querySelector('button[aria-label="Sort by ' + ${JSON.stringify(arg)} + '"]').click();
    requestAnimationFrame(() => setTimeout(() => done(performance.now() - start), 0));
  })`) as Promise<number>;

async function measureUi(browser: Browser, pods: number, seed: number): Promise<UiFigures> {
  const began = performance.now();
  // Each step on stderr: at 30,000 pods the whole takes minutes on a busy machine.
  const step = (what: string) => process.stderr.write(`  ${pods} pods, ${((performance.now() - began) / 1000).toFixed(0)} s: ${what}\n`);
  const work = mkdtempSync(join(tmpdir(), 'ns-bench-ui-'));
  const socketPath = join(work, 'pods.sock');
  const kubelet = await kubeletProcess(socketPath, pods, seed, CHURN_PER_SECOND);
  let ui: { proc: ChildProcess; url: string } | undefined;
  // The measuring scripts are text evaluated in the page, which the app's CSP forbids (and rightly): the bench's own context lets them run.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  try {
    const client = createKubeletClient({ target: socketPath, socketPath });
    const protobufBytes = (await client.listPodBytes()).bytes.reduce((n, b) => n + b.length, 0);
    client.close();
    step('simulated kubelet serving; starting nodescope ui');
    ui = await startUi(work, socketPath);
    step('nodescope ui serving; loading the page');
    const page = await context.newPage();
    page.setDefaultTimeout(600_000);
    await page.goto(ui.url);
    // 90%: the churn adds and removes pods, and a node that took minutes to start has drifted by a few percent.
    const loaded = () =>
      page.waitForFunction(
        `Number((/([\\d,]+) pods$/.exec(document.querySelector('.pods-foot')?.textContent ?? '') ?? [])[1]?.replace(/,/g, '') ?? 0) >= ${Math.floor(pods * 0.9)}`,
        undefined,
        { polling: 100 },
      );
    await loaded();
    step('every pod shown; disconnecting and connecting again');

    // Connect to first rows, from the UI: disconnect (the rows go), then connect.
    await page.getByRole('button', { name: `Disconnect ${LABEL}` }).click();
    await page.waitForSelector('.pod-row', { state: 'detached' });
    const clicked = performance.now();
    await page.getByRole('button', { name: `Connect ${LABEL}` }).click();
    await page.waitForSelector('.pod-row');
    const connectMs = performance.now() - clicked;
    step('first rows shown; waiting for every pod');
    await loaded();
    step('every pod shown; measuring');
    // The server's memory once the whole node is held and the churn goes on.
    await page.waitForTimeout(2000);
    const serverRssBytes = rssBytes(ui.proc.pid!);
    const sampled = performance.now();

    const idleFps = await framesPerSecond(page, 3000, false);
    const scrollFps = await framesPerSecond(page, 3000, true);

    // Keystrokes of a filter and back, each to the table drawn with its result.
    const filterTimes: number[] = [];
    for (const text of ['d', 'de', 'def', 'defa', 'default', 'defaul', 'def', 'd', '']) filterTimes.push(await untilDrawn(page, 'filter', text));
    if ((await shownCount(page)) === 0) throw new Error('the table shows no pods after clearing the filter');
    const sortTimes: number[] = [];
    for (const column of ['Name', 'Restarts', 'Age', 'Status', 'Namespace', 'Name', 'Pod IP']) sortTimes.push(await untilDrawn(page, 'sort', column));
    const laterRssBytes = rssBytes(ui.proc.pid!);
    const laterS = (performance.now() - sampled) / 1000;
    return { connectMs, filterMs: median(filterTimes), sortMs: median(sortTimes), idleFps, scrollFps, serverRssBytes, laterRssBytes, laterS, protobufBytes };
  } finally {
    await context.close();
    if (ui) {
      const exited = new Promise((r) => ui!.proc.once('exit', r));
      ui.proc.kill('SIGTERM');
      await exited;
    }
    await kubelet.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

export async function uiBench(): Promise<boolean> {
  console.log(`\nUI in Chromium (browser mode), ${CHURN_PER_SECOND} changes/s: 30,000 pods against 300`);
  // Built first, so the server measured runs as installed (not compiling TypeScript, not building the UI).
  await buildCli();
  await ensureRendererBuilt();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--headless'] });
  try {
    const small = await measureUi(browser, 300, 7);
    const big = await measureUi(browser, 30_000, 7);
    const mib = (b: number) => b / 1024 / 1024;
    const results = [
      figure('connect to first rows, 30,000 pods', big.connectMs, 'ms', { baseline: small.connectMs }),
      figure('filter keystroke to table, 30,000 pods', big.filterMs, 'ms', { baseline: small.filterMs, target: { maxRatio: 3, max: 100 } }),
      figure('sort to table, 30,000 pods', big.sortMs, 'ms', { baseline: small.sortMs, target: { maxRatio: 3, max: 100 } }),
      figure('frames/s idle, 30,000 pods', big.idleFps, 'fps', { baseline: small.idleFps, target: { min: 50 } }),
      figure('frames/s scrolling, 30,000 pods', big.scrollFps, 'fps', { baseline: small.scrollFps, target: { min: 50 } }),
      figure('server memory, 30,000 pods', mib(big.serverRssBytes), 'MiB', {
        baseline: mib(big.protobufBytes),
        target: { maxRatio: 3 },
        note: `(baseline: the pods' protobuf bytes; at 300 pods ${mib(small.serverRssBytes).toFixed(0)} MiB)`,
      }),
      // No target: what the server settles at under churn, its pod history filling (up to 64 MiB of versions).
      figure('server memory at the end, 30,000 pods', mib(big.laterRssBytes), 'MiB', {
        baseline: mib(big.protobufBytes),
        note: `(${big.laterS.toFixed(0)} s later; at 300 pods ${mib(small.laterRssBytes).toFixed(0)} MiB)`,
      }),
    ];
    return results.every(Boolean);
  } finally {
    await browser.close();
  }
}
