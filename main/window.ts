import { BrowserWindow, nativeTheme } from 'electron';
import { APP_ENTRY_URL, APP_ORIGIN } from './app-protocol';
import { installNavigationGuards } from './navigation-guard';

/**
 * The renderer is treated as untrusted: isolated, sandboxed, no Node. It talks to the app core
 * only through the preload's named contract methods.
 */
export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: false,
} as const;

export async function createMainWindow(preloadPath: string): Promise<BrowserWindow> {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 560,
    title: 'Nodescope',
    show: false,
    // Matches the renderer's theme before its CSS arrives, so there is no white flash in dark mode.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#14161a' : '#ffffff',
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: preloadPath },
  });
  installNavigationGuards(window.webContents, APP_ORIGIN);
  window.once('ready-to-show', () => window.show());
  await window.loadURL(APP_ENTRY_URL);
  return window;
}
