import type { Bridge } from '../../app/contract/bridge';
import type { RequestOutput } from '../../app/contract/requests';
import { TOKEN_PARAM, UPLOAD_NAME_PARAM, UPLOAD_PATH } from '../../app/contract/ws-wire';

declare global {
  interface Window {
    /** Set by the Electron preload: opens dropped files, whose paths it reads itself (Electron gives pages none). */
    nodescopeFiles?: { open(files: File[]): Promise<RequestOutput<'sources.open'>> };
  }
}

/**
 * Opens files the user dropped or picked as offline sources: Electron hands their paths to the app
 * core; a browser uploads each by POST (streamed; the bridge socket takes 1 MiB at most). Returns the
 * new sources' ids; a file that cannot be read throws with the reader's message naming it.
 */
export async function openFiles(bridge: Bridge, files: File[]): Promise<string[]> {
  const electron = window.nodescopeFiles;
  if (electron) {
    const opened = await electron.open(files);
    return opened.status === 'opened' ? opened.nodes.map((n) => n.id) : [];
  }
  const ids: string[] = [];
  for (const file of files) ids.push(await uploadFile(file));
  return ids;
}

async function uploadFile(file: File): Promise<string> {
  const token = new URL(window.location.href).searchParams.get(TOKEN_PARAM);
  if (!token) throw new Error('This page cannot upload files: open the exact URL `nodescope ui` printed, or run nodescope ui FILE.');
  const url = new URL(UPLOAD_PATH, window.location.href);
  url.searchParams.set(TOKEN_PARAM, token);
  url.searchParams.set(UPLOAD_NAME_PARAM, file.name);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', body: file });
  } catch (err) {
    throw new Error(`Could not send ${file.name} to Nodescope (${(err as Error).message}). Check that nodescope ui still runs.`);
  }
  const answer = (await response.json().catch(() => ({}))) as { nodeId?: string; error?: string };
  if (!response.ok || !answer.nodeId) throw new Error(answer.error ?? `Nodescope refused ${file.name} (HTTP ${response.status}).`);
  return answer.nodeId;
}
