import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStaticPath } from './static-files';

describe('resolveStaticPath', () => {
  const root = mkdtempSync(join(tmpdir(), 'ns-static-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html>');

  it('maps / to index.html and asset paths inside the root', () => {
    expect(resolveStaticPath(root, '/')).toBe(join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/app-1a2b.js?v=1')).toBe(join(root, 'assets', 'app-1a2b.js'));
  });

  it('never resolves outside the built renderer', () => {
    for (const path of ['/../package.json', '/assets/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2fsecret', '/%00', '/%E0%A4%A']) {
      expect(resolveStaticPath(root, path), path).toBeNull();
    }
  });
});
