import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './content-security-policy';

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

describe('contentSecurityPolicy', () => {
  it('allows only our own scripts: no eval, no inline, no remote code', () => {
    const csp = contentSecurityPolicy();
    expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/);
    const d = directives(csp);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
  });

  it('lets the browser-mode page reach exactly its own contract socket', () => {
    const d = directives(contentSecurityPolicy({ connectSrc: ['ws://127.0.0.1:4312'] }));
    expect(d.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4312']);
  });
});
