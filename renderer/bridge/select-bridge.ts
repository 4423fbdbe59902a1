import type { Bridge } from '../../app/contract/bridge';
import { bridgeSocketUrl } from '../../app/contract/ws-wire';
import { createWsBridge, type WsBridge } from './ws-bridge-client';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge): the contract, nothing else. */
    nodescope?: Bridge;
  }
}

/**
 * The bridge this window talks through: the preload's in Electron, otherwise the browser-mode
 * WebSocket named by the page URL's token. Returns the socket bridge too, so the app can resync
 * after it reconnects.
 */
export function selectBridge(): { bridge: Bridge; socket: WsBridge | null } {
  if (window.nodescope) return { bridge: window.nodescope, socket: null };
  const socket = createWsBridge(bridgeSocketUrl(window.location.href));
  return { bridge: socket, socket };
}
