import type { ServerFrame } from '../app/contract';
import type { CallerConnection } from '../app/core/caller-connection';
import { isAppUrl } from './navigation-guard';

/**
 * One call frame over IPC, as main takes it: only a frame showing our own app origin may call at all
 * (a request from another is answered `forbidden`, nothing else of it is read, and it opens no
 * connection to receive events on), then the window's connection validates the frame, the request's name and input (errors name the bad field) before a
 * handler runs. Answers false for what is no call frame.
 */
export function receiveIpcFrame(
  connection: () => CallerConnection,
  appOrigin: string,
  frameUrl: string,
  frame: unknown,
  send: (frame: ServerFrame) => void,
): boolean {
  if (isAppUrl(frameUrl, appOrigin)) return connection().receive(frame);
  const id = (frame as { type?: unknown; id?: unknown } | null)?.id;
  if ((frame as { type?: unknown } | null)?.type === 'request' && typeof id === 'number') {
    send({
      type: 'response',
      id,
      result: { ok: false, error: { code: 'forbidden', message: `Requests are only accepted from Nodescope's own pages, not ${frameUrl || 'an unknown frame'}.` } },
    });
  }
  return true;
}
