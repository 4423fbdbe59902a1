import { ContractError, handleRequest, type NodeInfo, type RequestResult } from '../app/contract';
import { isAppUrl } from './navigation-guard';

/**
 * The preload's own channel for files dropped on the window. The page cannot send on it (it has no
 * ipcRenderer): it can only hand the preload File objects, whose paths Electron reads itself, and a
 * File the page made up has none. So the paths that arrive here are files the user dropped.
 */
export const DROPPED_FILES_CHANNEL = 'nodescope-host:open-dropped';

/**
 * Opens the dropped files as sources, answered as `sources.open` is (its input checks and its result),
 * and only for a frame showing our own app origin.
 */
export function answerDroppedFiles(
  openDropped: (paths: string[]) => Promise<NodeInfo[]>,
  appOrigin: string,
  frameUrl: string,
  paths: unknown,
): Promise<RequestResult> {
  if (!isAppUrl(frameUrl, appOrigin)) {
    return Promise.resolve({ ok: false, error: { code: 'forbidden', message: `Files are only opened for Nodescope's own pages, not ${frameUrl || 'an unknown frame'}.` } });
  }
  return handleRequest(
    {
      'sources.open': async (input) => {
        if (input.paths === undefined) throw new ContractError('invalid-input', 'No dropped file came with the request.', 'Drop the file on the window again.', 'paths');
        return { status: 'opened', nodes: await openDropped(input.paths) };
      },
    },
    'sources.open',
    { paths },
  );
}
