import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { RequestOutput } from '../../app/contract/requests';

/** What the host can do (pick files, open files) and where it puts exports; null until it answered. */
export function useAppInfo(bridge: Bridge): RequestOutput<'app.info'> | null {
  const [info, setInfo] = useState<RequestOutput<'app.info'> | null>(null);
  useEffect(() => {
    bridge.request('app.info', {}).then(setInfo, () => undefined);
  }, [bridge]);
  return info;
}
