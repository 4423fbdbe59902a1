import type { Bridge } from '../../app/contract/bridge';
import type { RequestOutput } from '../../app/contract/requests';
import { MAX_UPLOAD_SIDECAR_CHARS, TOKEN_PARAM, UPLOAD_NAME_PARAM, UPLOAD_PATH, UPLOAD_SIDECAR_PARAM } from '../../app/contract/ws-wire';
import { pairSidecars } from './sidecar-pairs';

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
  // A snapshot keeps where and when it was taken only when its sidecar (F.nodescope.json) comes with it.
  const { uploads, strays } = pairSidecars(files);
  if (strays.length > 0) {
    throw new Error(`${strays.map((s) => s.name).join(', ')}: a provenance sidecar, not pods. Pick it together with the export it describes (${strays.map((s) => s.name.replace(/\.nodescope\.json$/, '')).join(', ')}).`);
  }
  const ids: string[] = [];
  for (const { file, sidecar } of uploads) ids.push(await uploadFile(file, sidecar && (await sidecarText(sidecar))));
  return ids;
}

async function sidecarText(sidecar: File): Promise<string | undefined> {
  // Larger is not a sidecar Nodescope wrote: the export opens without it, as one without a sidecar does.
  return sidecar.size > MAX_UPLOAD_SIDECAR_CHARS ? undefined : sidecar.text();
}

async function uploadFile(file: File, sidecar?: string): Promise<string> {
  const token = new URL(window.location.href).searchParams.get(TOKEN_PARAM);
  if (!token) throw new Error('This page cannot upload files: open the exact URL `nodescope ui` printed, or run nodescope ui FILE.');
  const url = new URL(UPLOAD_PATH, window.location.href);
  url.searchParams.set(TOKEN_PARAM, token);
  url.searchParams.set(UPLOAD_NAME_PARAM, file.name);
  if (sidecar !== undefined) url.searchParams.set(UPLOAD_SIDECAR_PARAM, sidecar);
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
