// Electron's main process: the shell around the app core. It serves the built renderer from a
// private origin, locks the window down, and carries the contract over IPC.
import { app, dialog, session, type WebContents } from 'electron';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../app/host/host';
import { askpassScriptFromArgv } from '../app/ssh/openssh/askpass-helper';
import { APP_ORIGIN, registerAppScheme, serveRendererFrom } from './app-protocol';
import { enforceCsp } from './csp-headers';
import { bindContractToIpc, bindDroppedFilesToIpc } from './ipc-binding';
import { installNavigationGuards } from './navigation-guard';
import { denyAllPermissions } from './permission-handler';
import { createMainWindow } from './window';

const here = dirname(fileURLToPath(import.meta.url));

async function start(): Promise<void> {
  // ssh started the packaged app as its askpass program (its RunAsNode fuse is off): run the helper, which
  // prints the answer and exits, and nothing else.
  const askpassScript = askpassScriptFromArgv(process.argv);
  if (askpassScript) {
    app.dock?.hide();
    createRequire(import.meta.url)(askpassScript);
    return;
  }
  app.enableSandbox();
  registerAppScheme();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Every web contents, including any the app never meant to create, gets the same guards.
  app.on('web-contents-created', (_event, contents: WebContents) => installNavigationGuards(contents, APP_ORIGIN));

  await app.whenReady();
  denyAllPermissions(session.defaultSession);
  enforceCsp(session.defaultSession);
  serveRendererFrom(join(app.getAppPath(), 'dist', 'renderer'));

  const inspector = await createHost({
    mode: 'electron',
    stateDir: app.getPath('userData'),
    defaultExportDir: app.getPath('downloads'),
    async pickSavePath(suggestedPath) {
      const json = { name: 'JSON', extensions: ['json'] };
      const ndjson = { name: 'NDJSON', extensions: ['ndjson', 'jsonl'] };
      const yaml = { name: 'YAML', extensions: ['yaml', 'yml'] };
      // The filter shown first matches the suggested name, or the dialog hides the kind being saved.
      // The path it returns is the only one exports go to: the dialog asks before replacing a file
      // (Linux needs showOverwriteConfirmation for that; macOS and Windows always ask).
      const result = await dialog.showSaveDialog({
        defaultPath: suggestedPath,
        filters: suggestedPath.endsWith('.ndjson') ? [ndjson, json, yaml] : suggestedPath.endsWith('.yaml') ? [yaml, json, ndjson] : [json, ndjson, yaml],
        properties: ['showOverwriteConfirmation', 'createDirectory'],
      });
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    async pickOpenPaths() {
      const result = await dialog.showOpenDialog({
        title: 'Open snapshot or recording',
        defaultPath: app.getPath('downloads'),
        properties: ['openFile', 'multiSelections'],
        filters: [
          { name: 'Snapshots and recordings', extensions: ['json', 'ndjson', 'jsonl', 'pb', 'bin', 'protobuf'] },
          { name: 'All files', extensions: ['*'] },
        ],
      });
      return result.canceled ? [] : result.filePaths;
    },
  });
  const unbindContract = bindContractToIpc(inspector, APP_ORIGIN);
  const unbindDropped = bindDroppedFilesToIpc(inspector, APP_ORIGIN);
  const unbind = () => {
    unbindContract();
    unbindDropped();
  };

  let window = await createMainWindow(join(here, 'preload.cjs'));
  // On macOS the app outlives its window: a second launch or a dock click opens a new one.
  const showWindow = async () => {
    if (window.isDestroyed()) window = await createMainWindow(join(here, 'preload.cjs'));
    if (window.isMinimized()) window.restore();
    window.focus();
  };
  const show = () =>
    showWindow().catch((err: unknown) => dialog.showErrorBox('Nodescope could not open its window', err instanceof Error ? err.message : String(err)));
  // A second launch focuses the running window.
  app.on('second-instance', show);
  app.on('activate', show);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // SSH sessions, forwarders and the demo kubelet are closed before the process goes away.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    unbind();
    void inspector.close().finally(() => app.quit());
  });
}

start().catch((err: unknown) => {
  dialog.showErrorBox('Nodescope could not start', err instanceof Error ? err.message : String(err));
  app.exit(1);
});
