import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}

/** Headers every response carries: the CSP, plus no sniffing, no framing, no referrer leaks. */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/**
 * Maps a request path onto a file inside `root`, or null when it would escape it. `/` is the app's
 * index.html; nothing outside the built renderer can be read.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = resolve(root);
  const file = resolve(base, relative);
  return file.startsWith(base + sep) ? file : null;
}

/** Serves GET/HEAD of `file` (resolveStaticPath's answer: null for none) from the built renderer; everything else is refused. */
export async function serveStatic(file: string | null, csp: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = securityHeaders(csp);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('method not allowed\n');
    return;
  }
  const info = file ? await stat(file).catch(() => null) : null;
  if (!file || !info?.isFile()) {
    res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found\n');
    return;
  }
  res.writeHead(200, {
    ...headers,
    'Content-Type': contentTypeFor(file),
    'Content-Length': String(info.size),
    // A rebuilt renderer must show up on reload; loopback makes revalidation free.
    'Cache-Control': 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // pipeline, not pipe: a file gone since stat (a rebuild emptying the folder) rejects here, where
  // the server answers it, instead of an unhandled stream error ending the process.
  await pipeline(createReadStream(file), res);
}
