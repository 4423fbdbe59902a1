import { useShortcuts } from '../keys/use-shortcuts';

/** `l` (key-bindings.ts) opens the Logs tab of the pod that is open, else of the selected one, as in k9s. */
export function useLogsKey(pod: string | null, openLogs: (uid: string) => void) {
  useShortcuts({ logs: pod ? () => openLogs(pod) : undefined });
}
