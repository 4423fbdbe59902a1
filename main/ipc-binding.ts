import { ipcMain, webContents, type IpcMainInvokeEvent } from 'electron';
import { eventChannel, eventForUi, requestChannel, requestNames } from '../app/contract';
import type { Host } from '../app/host/host';
import { answerDroppedFiles, DROPPED_FILES_CHANNEL } from './dropped-files';
import { answerIpcRequest } from './ipc-request';
import { isAppUrl } from './navigation-guard';

/**
 * Answers the contract's request channels and pushes its events to our windows. Every payload is
 * validated with the contract's zod schemas here in main (handleRequest, eventForUi; pod batches where the
 * core makes them), and only
 * frames showing our own app origin may call at all.
 */
export function bindContractToIpc(host: Pick<Host, 'handlers' | 'subscribe'>, appOrigin: string): () => void {
  for (const name of requestNames) {
    ipcMain.handle(requestChannel(name), (event: IpcMainInvokeEvent, input: unknown) =>
      answerIpcRequest(host.handlers, appOrigin, event.senderFrame?.url ?? '', name, input),
    );
  }

  const unsubscribe = host.subscribe((event) => {
    let payload: unknown;
    try {
      payload = eventForUi(event.name, event.payload);
    } catch (err) {
      console.error(`nodescope: dropped ${event.name} event: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    for (const contents of webContents.getAllWebContents()) {
      if (!contents.isDestroyed() && isAppUrl(contents.getURL(), appOrigin)) contents.send(eventChannel(event.name), payload);
    }
  });

  return () => {
    unsubscribe();
    for (const name of requestNames) ipcMain.removeHandler(requestChannel(name));
  };
}

/** Opens files dropped on the window, whose paths only the preload sends (dropped-files.ts). */
export function bindDroppedFilesToIpc(inspector: Host, appOrigin: string): () => void {
  ipcMain.handle(DROPPED_FILES_CHANNEL, (event: IpcMainInvokeEvent, paths: unknown) =>
    answerDroppedFiles(inspector.openDropped, appOrigin, event.senderFrame?.url ?? '', paths),
  );
  return () => ipcMain.removeHandler(DROPPED_FILES_CHANNEL);
}
