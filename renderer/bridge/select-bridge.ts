import type { Bridge } from '../../app/contract/bridge';
import { createCallClient } from '../../app/contract/call-client';
import type { ClientFrame } from '../../app/contract/jobs';
import { bridgeSocketUrl } from '../../app/contract/ws-wire';
import { createWsBridge, type WsBridge } from './ws-bridge-client';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge): the contract's call frames over IPC, nothing else. */
    nodescope?: { send(frame: ClientFrame): void; onFrame(handler: (frame: unknown) => void): () => void };
  }
}

/**
 * The bridge this window talks through: the contract's call frames over the preload's IPC in Electron,
 * otherwise over the browser-mode WebSocket named by the page URL's token. Returns the socket bridge
 * too, so the app can resync after it reconnects.
 */
export function selectBridge(): { bridge: Bridge; socket: WsBridge | null } {
  const ipc = window.nodescope;
  if (ipc) {
    // IPC never drops while the page lives: a frame is sent as soon as it is made.
    const client = createCallClient((frame) => (ipc.send(frame), true));
    ipc.onFrame(client.receive);
    return { bridge: client.bridge, socket: null };
  }
  const socket = createWsBridge(bridgeSocketUrl(window.location.href));
  return { bridge: socket, socket };
}
