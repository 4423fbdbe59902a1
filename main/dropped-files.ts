import { ContractError, type NodeInfo, type RequestResult } from '../app/contract';
import { answerIpcRequest } from './ipc-request';

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
  return answerIpcRequest(
    {
      'sources.open': async (input) => {
        if (input.paths === undefined) throw new ContractError('invalid-input', 'No dropped file came with the request.', 'Drop the file on the window again.', 'paths');
        return { status: 'opened', nodes: await openDropped(input.paths) };
      },
    },
    appOrigin,
    frameUrl,
    'sources.open',
    { paths },
  );
}
