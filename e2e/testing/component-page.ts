/**
 * One renderer component in Debian's Chromium, on the fake bridge: a test page entry (a `*.test-page.tsx`
 * beside the component, mounting it with renderer/testing/test-page.tsx) bundled in memory by esbuild,
 * served with the app's CSP, opened in a fresh page per test. The window over the real hub is renderer-ui.test.ts's job.
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; object-src 'none'";
const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><link rel="icon" href="data:,"><link rel="stylesheet" href="/page.css"><title>test page</title></head><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>`;

export interface ComponentPages {
  /** Opens the page; `query` reaches the entry as location.search (which case to mount); `errors` collects the page's errors. */
  open(query?: string): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

async function componentPages(entry: string): Promise<ComponentPages> {
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    outdir: '/out',
    entryNames: 'page',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  const files = new Map(bundle.outputFiles.map((f) => [f.path.slice('/out'.length), f.contents]));
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(HTML);
    const body = files.get(path);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': path.endsWith('.css') ? 'text/css' : 'text/javascript' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const browser: Browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    async open(query = '') {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${base}${query ? `?${query}` : ''}`);
      await page.locator('#root > *').first().waitFor({ state: 'attached' });
      return { page, errors };
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/** For a test file: its component's test page, bundled and served once for all its tests. */
export function componentTestPages(entry: URL): Pick<ComponentPages, 'open'> {
  let pages: ComponentPages | undefined;
  beforeAll(async () => {
    pages = await componentPages(fileURLToPath(entry));
  }, 60_000);
  afterAll(() => pages?.close());
  return { open: (query) => pages!.open(query) };
}

/** What the page's callbacks were called with so far (renderer/testing/test-page.tsx's `record`). */
export function recordedCalls(page: Page): Promise<[string, ...unknown[]][]> {
  return page.evaluate('window.recorded');
}
