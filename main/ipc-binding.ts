import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CALL_CHANNEL, FRAME_CHANNEL, type ServerFrame } from '../app/contract';
import { openCallerConnection, type BridgeCore, type CallerConnection } from '../app/core/caller-connection';
import type { Host } from '../app/host/host';
import { answerDroppedFiles, DROPPED_FILES_CHANNEL } from './dropped-files';
import { receiveIpcFrame } from './ipc-request';

/**
 * Carries the contract's call frames (app/contract/jobs.ts) between main and each window: one
 * connection per web contents, validated with the contract's zod schemas here in main, and only
 * frames showing our own app origin may call at all. A window that reloads, navigates, crashes or
 * closes has every call of its cancelled and its subscriptions ended.
 */
export function bindContractToIpc(host: BridgeCore, appOrigin: string): () => void {
  const connections = new Map<WebContents, CallerConnection>();

  const connectionOf = (contents: WebContents): CallerConnection => {
    const known = connections.get(contents);
    if (known) return known;
    const connection = openCallerConnection(host, (frame) => {
      if (!contents.isDestroyed()) contents.send(FRAME_CHANNEL, frame);
    });
    connections.set(contents, connection);
    const end = () => {
      if (connections.get(contents) !== connection) return;
      connections.delete(contents);
      connection.close();
      contents.off('did-start-navigation', navigated);
    };
    // A reload or another page is a new window as far as its calls go: the old page's are cancelled.
    const navigated = (details: { isMainFrame: boolean; isSameDocument: boolean }) => {
      if (details.isMainFrame && !details.isSameDocument) end();
    };
    contents.on('did-start-navigation', navigated);
    contents.once('render-process-gone', end);
    contents.once('destroyed', end);
    return connection;
  };

  const receive = (event: IpcMainEvent, frame: unknown) => {
    const contents = event.sender;
    const send = (reply: ServerFrame) => contents.send(FRAME_CHANNEL, reply);
    if (!receiveIpcFrame(() => connectionOf(contents), appOrigin, event.senderFrame?.url ?? '', frame, send)) {
      console.error('nodescope: ignored a frame from the window that is no call frame.');
    }
  };
  ipcMain.on(CALL_CHANNEL, receive);

  return () => {
    ipcMain.off(CALL_CHANNEL, receive);
    for (const connection of connections.values()) connection.close();
    connections.clear();
  };
}

/** Opens files dropped on the window, whose paths only the preload sends (dropped-files.ts). */
export function bindDroppedFilesToIpc(inspector: Host, appOrigin: string): () => void {
  ipcMain.handle(DROPPED_FILES_CHANNEL, (event: IpcMainInvokeEvent, paths: unknown) =>
    answerDroppedFiles(inspector.openDropped, appOrigin, event.senderFrame?.url ?? '', paths),
  );
  return () => ipcMain.removeHandler(DROPPED_FILES_CHANNEL);
}
