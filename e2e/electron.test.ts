// The desktop app, driven through Playwright's Electron support. It needs the Electron binary,
// which npm downloads from outside the package registry; where it is missing the test is reported
// as skipped with the reason (never a silent pass), and browser-mode e2e covers the same UI.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../app/ui-server/renderer-build';
import { bundleMain, projectRoot } from '../main/bundle';
import { locateElectronBinary } from '../main/electron-binary';

const electron = locateElectronBinary();

describe('Electron desktop app', () => {
  if (!electron.found) {
    it('launches the window (needs the Electron binary)', (ctx) => {
      const reason = `Electron e2e skipped: no Electron binary at ${electron.expectedPath} (cannot be downloaded on this machine)`;
      console.warn(reason);
      ctx.skip(reason);
    });
    return;
  }

  let app: ElectronApplication;
  let page: Page;
  beforeAll(async () => {
    await ensureRendererBuilt();
    await bundleMain();
    // Chromium refuses to start its OS sandbox as root (CI containers); the app's own
    // webPreferences (contextIsolation, sandboxed renderer, no Node) are what this test checks.
    const asRoot = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    app = await _electron.launch({
      executablePath: electron.path,
      args: [projectRoot, `--user-data-dir=${mkdtempSync(join(tmpdir(), 'ns-electron-'))}`, ...asRoot],
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('shows the renderer from the private app origin under the strict CSP', async () => {
    expect(page.url()).toBe('nodescope://app/index.html');
    expect(await page.title()).toMatch(/Nodescope/);
    const evalBlocked = await page.evaluate(() => {
      try {
        // eslint-disable-next-line no-new-func
        return typeof new Function('return 1') !== 'function';
      } catch {
        return true;
      }
    });
    expect(evalBlocked).toBe(true);
  });

  it("gives the page the contract's call frames and nothing of Node or Electron", async () => {
    const exposed = await page.evaluate(() => ({
      bridge: Object.keys((window as unknown as { nodescope: object }).nodescope).sort(),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(exposed).toEqual({ bridge: ['onFrame', 'send'], require: 'undefined', process: 'undefined' });
    type Wire = { send(frame: object): void; onFrame(handler: (frame: { type: string; id?: number; result?: { value: { mode: string } } }) => void): () => void };
    const info = await page.evaluate(
      () =>
        new Promise<{ mode: string }>((resolve) => {
          const wire = (window as unknown as { nodescope: Wire }).nodescope;
          const off = wire.onFrame((frame) => {
            if (frame.type !== 'response' || frame.id !== 999_999) return;
            off();
            resolve(frame.result!.value);
          });
          wire.send({ type: 'request', id: 999_999, name: 'app.info', input: {} });
        }),
    );
    expect(info.mode).toBe('electron');
  });

  it('refuses to navigate away to remote content', async () => {
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe('nodescope://app/index.html');
    expect(app.windows()).toHaveLength(1);
  });
});
