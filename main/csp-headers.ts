import type { Session } from 'electron';
import { contentSecurityPolicy } from '../app/ui-server/content-security-policy';

/**
 * Puts the renderer's CSP on every response the session sees, not only on our protocol's files,
 * so even an unexpected load is held to the same policy.
 */
export function enforceCsp(session: Session): void {
  const csp = contentSecurityPolicy();
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
}
