// Runs in the sandboxed preload: the only door from the renderer to the app core. It exposes the
// contract's Bridge (request + on) and opening dropped files — no ipcRenderer, no generic channel access;
// names are checked against the contract so only `nodescope:` contract channels are ever used.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import {
  eventChannel,
  isEventName,
  isRequestName,
  requestChannel,
  type Bridge,
  type RequestResult,
} from '../app/contract';
import { DROPPED_FILES_CHANNEL } from './dropped-files';

/** A request's value, or its error thrown with the next step (contextBridge copies only an error's message into the page). */
function valueOf(result: RequestResult): never {
  if (result.ok) return result.value as never;
  const { message, nextStep } = result.error;
  throw new Error(nextStep ? `${message} ${nextStep}` : message);
}

const bridge: Bridge = {
  async request(name, input) {
    if (!isRequestName(name)) throw new Error(`Unknown request ${JSON.stringify(name)}.`);
    return valueOf((await ipcRenderer.invoke(requestChannel(name), input)) as RequestResult);
  },
  on(event, handler) {
    if (!isEventName(event)) throw new Error(`Unknown event ${JSON.stringify(event)}.`);
    const channel = eventChannel(event);
    const listener = (_e: IpcRendererEvent, payload: unknown) => handler(payload as never);
    ipcRenderer.on(channel, listener);
    return () => {
      ipcRenderer.removeListener(channel, listener);
    };
  },
};

contextBridge.exposeInMainWorld('nodescope', bridge);
// Files dropped on the window: their paths are read here, never taken from the page (sources.open refuses
// a path the page names that the user did not choose). Only a file from disk has one: the page cannot
// make up a File that points at another of the user's files.
contextBridge.exposeInMainWorld('nodescopeFiles', {
  async open(files: File[]) {
    const paths = files.map((file) => webUtils.getPathForFile(file));
    if (paths.length === 0 || paths.some((path) => !path)) throw new Error('Only files dropped from this computer can be opened. Drop the file itself, or use Open snapshot….');
    return valueOf((await ipcRenderer.invoke(DROPPED_FILES_CHANNEL, paths)) as RequestResult);
  },
});
