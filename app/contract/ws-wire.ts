/**
 * Browser mode carries the Bridge over one WebSocket. The server prints
 * `http://127.0.0.1:<port>/?token=<token>`; the page connects to
 * `ws://127.0.0.1:<port>/bridge?token=<token>` and the server checks the token and the Origin.
 * Frames are JSON text, the call frames of jobs.ts (the same as Electron's IPC carries):
 *   client → server  {type:'request', id, name, input} | {type:'cancel', id}
 *   server → client  {type:'response', id, result: RequestResult} | {type:'progress', id, progress}
 *                    | {type:'event', name, payload}
 * Ids are the client's own (a counter); responses may arrive in any order. A closed socket cancels
 * every call of its page.
 */
export const WS_BRIDGE_PATH = '/bridge';
export const TOKEN_PARAM = 'token';
/**
 * Browser mode opens files by upload: POST /upload?token=T&name=FILE with the file's bytes as the
 * body (from the page's own origin), answered {nodeId} or {error}.
 */
export const UPLOAD_PATH = '/upload';
export const UPLOAD_NAME_PARAM = 'name';
/** What a snapshot's provenance sidecar is named: the export's name and this (app/snapshot/snapshot-provenance.ts). */
export const SIDECAR_SUFFIX = '.nodescope.json';
/** An uploaded snapshot's provenance sidecar (F.nodescope.json), as its text: a few hundred bytes. */
export const UPLOAD_SIDECAR_PARAM = 'sidecar';
/** Longest sidecar text an upload may carry in its URL. */
export const MAX_UPLOAD_SIDECAR_CHARS = 16 * 1024;

/** The bridge socket URL for a page served at pageUrl (token carried over from its query). */
export function bridgeSocketUrl(pageUrl: string): string {
  const page = new URL(pageUrl);
  const token = page.searchParams.get(TOKEN_PARAM);
  if (!token) throw new Error(`The page URL has no ${TOKEN_PARAM} parameter; open the exact URL \`nodescope ui\` printed.`);
  const ws = new URL(WS_BRIDGE_PATH, page);
  ws.protocol = page.protocol === 'https:' ? 'wss:' : 'ws:';
  ws.search = '';
  ws.searchParams.set(TOKEN_PARAM, token);
  return ws.href;
}
