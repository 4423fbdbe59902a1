import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { MAX_UPLOAD_SIDECAR_CHARS, TOKEN_PARAM, UPLOAD_PATH, WS_BRIDGE_PATH } from '../contract';
import { accessTokenMatches, newAccessToken } from './access-token';
import { serveBridgeSocket, type ServedToTab } from './bridge-socket';
import { contentSecurityPolicy } from './content-security-policy';
import { invalidLinkPage } from './invalid-link-page';
import { resolveStaticPath, securityHeaders, serveStatic } from './static-files';
import { serveUpload, type OpenUpload } from './upload';

/** Browser mode listens on loopback only: the token guards the port from other local users' pages. */
export const UI_HOST = '127.0.0.1';

export interface UiServerOptions {
  host: ServedToTab;
  /** The built renderer (index.html and assets). */
  rendererDir: string;
  /** 0 (default) picks a free port; `port` on the result says which. */
  port?: number;
  /** Opens an uploaded snapshot or recording (POST /upload); without it uploads are refused. */
  openUpload?: OpenUpload;
}

export interface UiServer {
  /** The page URL with the token, to print and open. */
  url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Client-to-server messages are small requests; anything bigger is not ours. */
const MAX_REQUEST_BYTES = 1024 * 1024;
/**
 * An upload carries its sidecar in the URL, percent-encoded: up to 9 characters for one of its (a 3-byte
 * UTF-8 character). Node's 16 KiB default refused one well under its limit with a bare 431.
 */
const MAX_HEADER_BYTES = 16 * 1024 + 9 * MAX_UPLOAD_SIDECAR_CHARS;

function parseUrl(target: string, base: string): URL | null {
  try {
    return new URL(target, base);
  } catch {
    return null;
  }
}

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = newAccessToken();
  let origin = '';
  let csp = '';
  let hostHeader = '';

  // A page on another site that resolves its name to 127.0.0.1 (DNS rebinding) sends its own Host.
  const hostIsOurs = (req: IncomingMessage) => req.headers.host === hostHeader;

  const appPage = resolveStaticPath(options.rendererDir, '/');
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    if (!hostIsOurs(req)) {
      res.writeHead(421, { ...securityHeaders(csp), 'Content-Type': 'text/plain' }).end(`Open ${origin}/ instead.\n`);
      return;
    }
    const url = parseUrl(req.url ?? '/', origin);
    if (!url) {
      res.writeHead(400, { ...securityHeaders(csp), 'Content-Type': 'text/plain' }).end(`Bad request target. Open the link \`nodescope ui\` printed (${origin}/?${TOKEN_PARAM}=…).\n`);
      return;
    }
    // The app page itself needs the token: a stale or mangled link says so instead of loading an app
    // that can never connect. Its scripts and styles are the public build and need none. The page is
    // told by the file served, so no spelling of its path ('/%69ndex.html') skips the check.
    const file = resolveStaticPath(options.rendererDir, url.pathname);
    if (file === appPage) {
      const presented = url.searchParams.get(TOKEN_PARAM);
      if (!accessTokenMatches(token, presented)) {
        res.writeHead(401, { ...securityHeaders(csp), 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(invalidLinkPage(presented !== null));
        return;
      }
    }
    if (url.pathname === UPLOAD_PATH) {
      // Same guards as the bridge: our page (Origin) holding this run's token.
      if (!options.openUpload) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found\n');
      if (req.headers.origin !== origin) return void res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden: wrong origin\n');
      if (!accessTokenMatches(token, url.searchParams.get(TOKEN_PARAM))) {
        return void res.writeHead(401, { 'Content-Type': 'text/plain' }).end('Unauthorized: bad or missing token\n');
      }
      void serveUpload(req, res, url, options.openUpload);
      return;
    }
    serveStatic(file, csp, req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`${err instanceof Error ? err.message : String(err)}\n`);
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_BYTES });
  server.on('upgrade', (req, socket, head) => {
    // The HTTP server stops handling an upgraded socket's errors: a client resetting it while it
    // is refused would otherwise end the process.
    socket.on('error', () => socket.destroy());
    const refuse = (status: number, reason: string) => {
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
    };
    // Any local process can send a request target that is no URL ('//['): refused, not thrown.
    const url = parseUrl(req.url ?? '/', origin);
    if (url?.pathname !== WS_BRIDGE_PATH) return refuse(404, 'Not Found');
    if (!hostIsOurs(req) || req.headers.origin !== origin) return refuse(403, 'Forbidden: wrong origin');
    if (!accessTokenMatches(token, url.searchParams.get(TOKEN_PARAM))) return refuse(401, 'Unauthorized: bad or missing token');
    wss.handleUpgrade(req, socket, head, (ws) => serveBridgeSocket(ws, options.host));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, UI_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  hostHeader = `${UI_HOST}:${port}`;
  origin = `http://${hostHeader}`;
  csp = contentSecurityPolicy({ connectSrc: [`ws://${hostHeader}`] });

  return {
    url: `${origin}/?${TOKEN_PARAM}=${token}`,
    origin,
    port,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
