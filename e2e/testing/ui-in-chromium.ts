/**
 * The UI as an operator opens it in browser mode: the browser-mode server over an app core, the built
 * renderer, and Debian's Chromium with a fresh profile (Playwright passes it as --user-data-dir).
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createHost, type Host, type HostOptions } from '../../app/host/host';
import { ensureRendererBuilt } from '../../app/ui-server/renderer-build';
import { startUiServer, type UiServer } from '../../app/ui-server/ui-server';

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

export interface UiInChromium {
  server: UiServer;
  browser: BrowserContext;
  page: Page;
}

/** Serves `inspector`'s UI and opens it at its URL; the caller closes browser and server. */
export async function openUiInChromium(inspector: Host, profileDir: string, options: { acceptDownloads?: boolean; timeoutMs?: number } = {}): Promise<UiInChromium> {
  const rendererDir = await ensureRendererBuilt();
  const server = await startUiServer({ host: inspector, rendererDir, openUpload: inspector.openUploaded });
  const browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
    ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(options.timeoutMs ?? 15_000);
  await page.goto(server.url);
  return { server, browser, page };
}

/** Closes what openUiInChromium opened, then the app core; each may be missing when setting up failed. */
export async function closeUiInChromium(ui: Partial<UiInChromium> | undefined, inspector: Host | undefined): Promise<void> {
  await ui?.browser?.close();
  await ui?.server?.close();
  await inspector?.close();
}

/** A host made with `options` and its UI opened in Chromium; close() ends the browser, the server and the host. */
export async function openHostInChromium(options: HostOptions, profileDir: string): Promise<UiInChromium & { inspector: Host; close(): Promise<void> }> {
  const inspector = await createHost(options);
  const ui = await openUiInChromium(inspector, profileDir);
  return {
    ...ui,
    inspector,
    async close() {
      await ui.browser.close();
      await ui.server.close();
      await inspector.close();
    },
  };
}
