import { handleRequest, type RequestHandlers, type RequestResult } from '../app/contract';
import { isAppUrl } from './navigation-guard';

/**
 * One IPC request, as main answers it: only a frame showing our own app origin may call, then the
 * contract validates the name and input (errors name the bad field) before a handler runs.
 */
export function answerIpcRequest(
  handlers: Partial<RequestHandlers>,
  appOrigin: string,
  frameUrl: string,
  name: string,
  input: unknown,
): Promise<RequestResult> {
  if (!isAppUrl(frameUrl, appOrigin)) {
    return Promise.resolve({
      ok: false,
      error: {
        code: 'forbidden',
        message: `Requests are only accepted from Nodescope's own pages, not ${frameUrl || 'an unknown frame'}.`,
      },
    });
  }
  return handleRequest(handlers, name, input);
}
