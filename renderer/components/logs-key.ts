import { useEffect } from 'react';

/**
 * `l` opens the Logs tab of the pod that is open, else of the selected one (as in k9s). Kept apart from the
 * app's other keys so the key table can take it over as one entry.
 */
export function useLogsKey(pod: string | null, openLogs: (uid: string) => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'l' || e.ctrlKey || e.metaKey || e.altKey || !pod || e.defaultPrevented) return;
      const typing = e.target instanceof HTMLElement && (e.target.matches('input, textarea, select') || e.target.isContentEditable);
      if (typing || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      openLogs(pod);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pod, openLogs]);
}
