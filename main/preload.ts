// Runs in the sandboxed preload: the only door from the renderer to the app core. It exposes the
// contract's Bridge (request + on) and the path of a dropped file — no ipcRenderer, no generic channel access;
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

const bridge: Bridge = {
  async request(name, input) {
    if (!isRequestName(name)) throw new Error(`Unknown request ${JSON.stringify(name)}.`);
    const result = (await ipcRenderer.invoke(requestChannel(name), input)) as RequestResult;
    if (result.ok) return result.value as never;
    // contextBridge copies only an error's message into the page, so the next step rides along in it.
    const { message, hint } = result.error;
    throw new Error(hint ? `${message} ${hint}` : message);
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
// A dropped file's path, which sandboxed pages do not get: only for files the user dropped on the window.
contextBridge.exposeInMainWorld('nodescopeFiles', { pathFor: (file: File) => webUtils.getPathForFile(file) });
