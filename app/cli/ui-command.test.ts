import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';

const cli = resolve(import.meta.dirname, '..', '..', 'bin', 'nodescope.js');
const children: ChildProcess[] = [];
let browser: Browser | undefined;

function startUi(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [cli, 'ui', ...args], {
    env: { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'ns-ui-cmd-')), DISPLAY: '', WAYLAND_DISPLAY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const url = new Promise<string>((resolveUrl, reject) => {
    child.stdout!.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(stdout);
      if (match) resolveUrl(match[1]!);
    });
    void exited.then((code) => reject(new Error(`nodescope ui exited with ${code}: ${stderr}`)));
  });
  // Not every test waits for the URL; its failure is reported to those that do.
  url.catch(() => {});
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

const launchBrowser = async () =>
  (browser ??= await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  }));

afterAll(async () => {
  await browser?.close();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('nodescope ui', () => {
  it('rejects a bad port with a usage error naming the option', async () => {
    const ui = startUi(['--port', '70000']);
    expect(await ui.exited).toBe(2);
    expect(ui.output().stderr).toContain('--port must be a number from 0 (any free port) to 65535');
  });

  it('rejects a memory budget that is no size, or too small, with a usage error naming the option', async () => {
    for (const [size, message] of [
      ['lots', `--memory-budget: "lots" is not a size: write a number and a unit, e.g. 1 GiB`],
      ['12M', '--memory-budget: The memory budget is at least 64 MiB, not 12 MiB.'],
    ]) {
      const ui = startUi(['--no-open', '--memory-budget', size!]);
      expect(await ui.exited).toBe(2);
      expect(ui.output().stderr).toContain(message);
    }
  });

  it('rejects a rows-only threshold that is not a number of nodes, with a usage error naming the option', async () => {
    const ui = startUi(['--no-open', '--rows-only-above', 'many']);
    expect(await ui.exited).toBe(2);
    expect(ui.output().stderr).toContain('--rows-only-above: "many" is not a number of nodes: write a whole number, e.g. 200.');
  });

  it('takes --port 0 as any free port and prints the one it got; a stop right then is clean', async () => {
    const ui = startUi(['--no-open', '--no-demo', '--port', '0']);
    const port = Number(new URL(await ui.url).port);
    expect(port).toBeGreaterThan(0);
    ui.child.kill('SIGTERM');
    expect(await ui.exited).toBe(0);
  }, 60_000);

  it('opens the browser through a private page, never with the token on a command line', async () => {
    // The opener is the one program we stand in for: it records its arguments and environment,
    // which every local user could read from /proc while it and the browser run.
    const bin = mkdtempSync(join(tmpdir(), 'ns-ui-open-'));
    const args = join(bin, 'args.txt');
    const env = join(bin, 'env.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nenv > ${env}\nprintf '%s\\n' "$@" > ${args}\n`, { mode: 0o755 });
    const ui = startUi(['--no-demo'], { DISPLAY: ':0', PATH: `${bin}:${process.env.PATH}` });
    const url = await ui.url;
    const token = new URL(url).searchParams.get('token')!;
    await expect.poll(() => (existsSync(args) ? readFileSync(args, 'utf8') : ''), { timeout: 10_000 }).toMatch(/^file:/);
    const opened = readFileSync(args, 'utf8').trim();
    expect(opened).not.toContain(token);
    expect(readFileSync(env, 'utf8')).not.toContain(token);

    const page = fileURLToPath(opened);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(page)).mode & 0o777).toBe(0o700);
    // The page takes the browser to the app.
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(opened);
    await tab.waitForURL(url, { timeout: 10_000 });
    await tab.close();

    ui.child.kill('SIGTERM');
    expect(await ui.exited).toBe(0);
    expect(existsSync(page)).toBe(false);
  }, 60_000);

  it('a terminal that closes (SIGHUP) stops it as Ctrl-C does: the launch page with the token does not stay', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'ns-ui-open-'));
    const args = join(bin, 'args.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > ${args}\n`, { mode: 0o755 });
    const ui = startUi(['--no-demo'], { DISPLAY: ':0', PATH: `${bin}:${process.env.PATH}` });
    await ui.url;
    await expect.poll(() => (existsSync(args) ? readFileSync(args, 'utf8') : ''), { timeout: 10_000 }).toMatch(/^file:/);
    const page = fileURLToPath(readFileSync(args, 'utf8').trim());
    expect(existsSync(page)).toBe(true);
    ui.child.kill('SIGHUP');
    expect(await ui.exited).toBe(0);
    expect(existsSync(dirname(page))).toBe(false);
  }, 60_000);

  it('adds the hosts a pattern matches and the sockets named, instead of the demo node', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-ui-hosts-'));
    const config = join(dir, 'ssh_config');
    // Port 1 refuses at once: the nodes are listed whatever becomes of their connections.
    writeFileSync(config, ['worker-1', 'worker-2', 'db-1'].map((h) => `Host ${h}\n  HostName 127.0.0.1\n  Port 1\n`).join(''));
    const ui = startUi(['--no-open', '--ssh-config', config, 'worker-*', 'unix:/run/ns-missing.sock']);
    const page = await (await launchBrowser()).newPage();
    await page.goto(await ui.url);
    const labels = page.getByRole('navigation', { name: 'Nodes' }).locator('.node-label-text');
    await expect.poll(() => labels.allTextContents(), { timeout: 20_000 }).toEqual(['worker-1', 'worker-2', 'unix:/run/ns-missing.sock']);
    await page.close();
    ui.child.kill('SIGTERM');
    expect(await ui.exited).toBe(0);

    const none = startUi(['--no-open', '--ssh-config', config, 'nomatch-*']);
    expect(await none.exited).toBe(2);
    expect(none.output().stderr).toContain(`'nomatch-*' matches no Host alias in ${config}`);
  }, 60_000);

  it('serves the UI with the demo node at the printed URL and stops cleanly on Ctrl-C', async () => {
    const ui = startUi(['--no-open']);
    const url = await ui.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);

    const page = await (await launchBrowser()).newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(url);
    await page.getByText('Demo node (simulated)').first().waitFor({ timeout: 20_000 });
    await page.getByText(/\d{3} pods/).first().waitFor({ timeout: 20_000 });
    expect(problems).toEqual([]);

    // With a wrong token the page says the link is not valid and how to get one, instead of an app that cannot connect.
    const stranger = await browser!.newPage();
    const answer = await stranger.goto(url.replace(/\?token=.*/, '?token=wrong'));
    expect(answer?.status()).toBe(401);
    await stranger.getByRole('heading', { name: 'This Nodescope link is not valid' }).waitFor();
    expect(await stranger.textContent('body')).toContain('nodescope ui');

    ui.child.kill('SIGINT');
    expect(await ui.exited).toBe(0);
  }, 120_000);

  it('opens the files it is given as offline snapshots, instead of starting the demo node', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-ui-files-'));
    const file = join(dir, 'one-pod.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'shop', uid: 'u-web-1' }, status: { phase: 'Running' } }));
    const ui = startUi(['--no-open', file]);
    const url = await ui.url;
    browser ??= await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage();
    await page.goto(url);
    const node = page.getByRole('button', { name: /^Node one-pod\.json: Snapshot/ });
    await node.waitFor({ timeout: 20_000 });
    await page.getByRole('gridcell', { name: 'web-1' }).waitFor();
    expect(await page.getByText('Demo node (simulated)').count()).toBe(0);
    ui.child.kill('SIGINT');
    expect(await ui.exited).toBe(0);
  }, 120_000);
});
