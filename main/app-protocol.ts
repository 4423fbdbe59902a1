import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { contentSecurityPolicy } from '../app/ui-server/content-security-policy';
import { contentTypeFor, resolveStaticPath, securityHeaders } from '../app/ui-server/static-files';

/**
 * The renderer is served from a private `nodescope://app/` origin instead of file://, so it gets a
 * real origin (CSP 'self' means exactly our files) and file:// never has to be trusted.
 */
export const APP_SCHEME = 'nodescope';
export const APP_ORIGIN = `${APP_SCHEME}://app`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

export function serveRendererFrom(rendererDir: string): void {
  const headers = securityHeaders(contentSecurityPolicy());
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === 'app' ? resolveStaticPath(rendererDir, url.pathname) : null;
    const body = file ? await readFile(file).catch(() => null) : null;
    if (!file || !body) return new Response('not found', { status: 404, headers });
    return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': contentTypeFor(file) } });
  });
}
