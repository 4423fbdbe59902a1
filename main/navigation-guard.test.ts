import { describe, expect, it } from 'vitest';
import { isAppUrl } from './navigation-guard';

const origin = 'nodescope://app';

describe('isAppUrl', () => {
  it('allows pages of the app origin', () => {
    expect(isAppUrl('nodescope://app/index.html', origin)).toBe(true);
    expect(isAppUrl('nodescope://app/index.html#pod/abc', origin)).toBe(true);
  });

  it('refuses remote pages, other schemes and look-alike hosts', () => {
    for (const url of [
      'https://example.com/',
      'http://127.0.0.1:8080/index.html',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'nodescope://app.evil/index.html',
      'nodescope://evil/index.html',
      'nodescope://user:pw@app/index.html',
      'not a url',
      '',
    ]) {
      expect(isAppUrl(url, origin), url).toBe(false);
    }
  });
});
