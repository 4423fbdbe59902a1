// Runs in the sandboxed preload: the only door from the renderer to the app core. It exposes the
// contract's call frames (app/contract/jobs.ts: requests, cancels, and the answers, progress and events
// coming back) and opening dropped files — no ipcRenderer, no generic channel access: only frames of
// the contract's shape go out, on its one channel. The renderer builds its Bridge on top
// (renderer/bridge/select-bridge.ts), the same as browser mode does on its WebSocket.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { CALL_CHANNEL, ClientFrameSchema, FRAME_CHANNEL, type RequestResult } from '../app/contract';
import { DROPPED_FILES_CHANNEL } from './dropped-files';

contextBridge.exposeInMainWorld('nodescope', {
  send(frame: unknown) {
    const parsed = ClientFrameSchema.safeParse(frame);
    if (!parsed.success) throw new Error('Not a call frame: expected {type:"request", id, name, input} or {type:"cancel", id}.');
    ipcRenderer.send(CALL_CHANNEL, parsed.data);
  },
  onFrame(handler: (frame: unknown) => void) {
    const listener = (_e: IpcRendererEvent, frame: unknown) => handler(frame);
    ipcRenderer.on(FRAME_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(FRAME_CHANNEL, listener);
    };
  },
});
// Files dropped on the window: their paths are read here, never taken from the page (sources.open refuses
// a path the page names that the user did not choose). Only a file from disk has one: the page cannot
// make up a File that points at another of the user's files.
contextBridge.exposeInMainWorld('nodescopeFiles', {
  async open(files: File[]) {
    const paths = files.map((file) => webUtils.getPathForFile(file));
    if (paths.length === 0 || paths.some((path) => !path)) throw new Error('Only files dropped from this computer can be opened. Drop the file itself, or use Open snapshot….');
    const result = (await ipcRenderer.invoke(DROPPED_FILES_CHANNEL, paths)) as RequestResult;
    if (result.ok) return result.value;
    const { message, nextStep } = result.error;
    // contextBridge copies only an error's message into the page.
    throw new Error(nextStep ? `${message} ${nextStep}` : message);
  },
});
