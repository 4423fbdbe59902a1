import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_UPLOAD_SIDECAR_CHARS, UPLOAD_NAME_PARAM, UPLOAD_SIDECAR_PARAM } from '../contract/ws-wire';

/**
 * Opens an uploaded file's bytes as a source; returns its node id. Throws with a message for the user.
 * `sidecar`: the text of the snapshot's provenance sidecar, when the user picked it with the file.
 */
export type OpenUpload = (chunks: AsyncIterable<Uint8Array>, name: string, sidecar?: string) => Promise<string>;

/**
 * Answers POST /upload: the body is the file's bytes, streamed to the reader as they come (the bridge's
 * WebSocket carries at most 1 MiB a message, and a snapshot can be hundreds of MB). The caller has
 * checked the token, Host and Origin. Replies {nodeId} or {error} as JSON.
 */
export async function serveUpload(req: IncomingMessage, res: ServerResponse, url: URL, open: OpenUpload): Promise<void> {
  const reply = (status: number, body: object) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
  };
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return reply(405, { error: 'Upload a file with POST.' });
  }
  // Only the file's name is kept (it labels the source); a path in it means nothing here.
  const name = (url.searchParams.get(UPLOAD_NAME_PARAM) ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  if (!name) return reply(400, { error: `Name the uploaded file with ?${UPLOAD_NAME_PARAM}=FILE.` });
  const sidecar = url.searchParams.get(UPLOAD_SIDECAR_PARAM) ?? undefined;
  if (sidecar !== undefined && sidecar.length > MAX_UPLOAD_SIDECAR_CHARS) {
    res.setHeader('Connection', 'close');
    return reply(413, { error: `The provenance sidecar sent with ${name} is over ${MAX_UPLOAD_SIDECAR_CHARS} characters: not one Nodescope wrote. Open ${name} alone.` });
  }
  try {
    const nodeId = await open(req, name, sidecar);
    reply(200, { nodeId });
  } catch (err) {
    // The rest of a refused body is not read: close the connection rather than wait for it.
    res.setHeader('Connection', 'close');
    reply(422, { error: err instanceof Error ? err.message : String(err) });
  }
}
