import { useState } from 'react';
import { useShortcuts } from '../keys/use-shortcuts';

/** The l key's last request to show a pod's Logs tab (n counts the presses, so a second one shows it again). */
export type LogsRequest = { uid: string; n: number } | null;

/**
 * `l` (key-bindings.ts) opens the pod that is open, else the selected one, on its Logs tab, as in k9s; the
 * request it returns tells the pod detail to show that tab.
 */
export function useLogsKey(pod: string | null, openPod: (uid: string) => void): LogsRequest {
  const [request, setRequest] = useState<LogsRequest>(null);
  useShortcuts({
    logs: pod
      ? () => {
          openPod(pod);
          setRequest((was) => ({ uid: pod, n: (was?.n ?? 0) + 1 }));
        }
      : undefined,
  });
  return request;
}
