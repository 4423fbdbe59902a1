/**
 * The one Content-Security-Policy for the renderer, used by the browser-mode server and by the
 * Electron shell alike: only our own bundled files run, nothing remote loads, no eval, and the only
 * network peer is the contract socket (browser mode) — so an XSS in pod data cannot reach out.
 */
export interface CspOptions {
  /** Extra `connect-src` sources, e.g. the browser-mode WebSocket origin `ws://127.0.0.1:PORT`. */
  connectSrc?: string[];
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    // React sets element styles through the CSSOM, which CSP allows; stylesheets come from our bundle.
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...(options.connectSrc ?? [])],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'worker-src': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}
