// `npm start` where Electron's binary cannot be had: one line saying so, then browser mode.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../main/bundle';
import { locateElectronBinary } from '../main/electron-binary';

describe('npm start without an Electron binary', () => {
  it('says so in one line and serves the browser UI instead', async (ctx) => {
    const electron = locateElectronBinary();
    if (electron.found) {
      ctx.skip(`npm start fallback not exercised: an Electron binary exists at ${electron.path} (the Electron e2e covers it)`);
    }
    const child = spawn(process.execPath, ['bin/run-ts.js', 'scripts/start.ts', '--no-open', '--no-demo'], {
      cwd: projectRoot,
      env: { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'ns-start-')), DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const m = /running at (http:\/\/\S+)/.exec(stdout);
        if (m) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`npm start exited with ${code}: ${stdout}`)));
    });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`nodescope: no Electron binary at ${electron.found ? '' : electron.expectedPath} (it could not be downloaded here); serving the UI in a browser instead.`);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Nodescope</title>');
    // React's production build, also when the UI was built during npm test (NODE_ENV=test): the entry
    // and the chunks it preloads (React has one of its own).
    const scripts = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\.?\/?([^"]+\.js)"/g)].map((m) => m[1]!);
    const js = await Promise.all(scripts.map(async (s) => (await fetch(new URL(s, url))).text()));
    expect(js.some((text) => text.includes('createRoot')), `${scripts.join(', ')} are not the UI's bundle`).toBe(true);
    for (const [i, text] of js.entries()) expect(text.includes('jsxDEV'), `${scripts[i]} is React's development build`).toBe(false);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 120_000);
});
