import { useEffect } from 'react';

/** Names the window after the node shown, so the taskbar and the tab say which one it is. */
export function useWindowTitle(nodeLabel: string | undefined): void {
  useEffect(() => {
    document.title = nodeLabel ? `${nodeLabel} — Nodescope` : 'Nodescope';
  }, [nodeLabel]);
}
