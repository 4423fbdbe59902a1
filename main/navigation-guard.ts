import type { WebContents } from 'electron';

/**
 * The window only ever shows our own bundled pages. Anything else — a link in pod data, a
 * redirect, `window.open` — is refused, so remote content can never run next to the preload API.
 */
export function isAppUrl(url: string, appOrigin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const expected = new URL(appOrigin);
  return parsed.protocol === expected.protocol && parsed.host === expected.host && parsed.username === '' && parsed.password === '';
}

export function installNavigationGuards(contents: WebContents, appOrigin: string): void {
  const refuse = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', (event) => refuse(event, event.url));
  contents.on('will-redirect', (event) => refuse(event, event.url));
  contents.on('will-frame-navigate', (event) => refuse(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}
