// `nodescope node` option errors: named, with what to give, and exit 2.
import { describe, expect, it } from 'vitest';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

describe('nodescope node: bad options', () => {
  it('refuses a --journal-lines that is not a whole number from 1, and --mask, saying what to give', async () => {
    const lines = await nodescope(['node', 'unix:/nonexistent.sock', '--journal-lines', '0']);
    expect(lines.code).toBe(EXIT.usage);
    expect(lines.stderr).toContain("bad --journal-lines '0': give a whole number from 1 to 100000");
    expect(lines.stdout).toBe('');
    const mask = await nodescope(['node', 'unix:/nonexistent.sock', '--mask', 'metadata.name']);
    expect(mask.code).toBe(EXIT.usage);
    expect(mask.stderr).toContain('leave out --mask');
  }, 60_000);

  it('needs a live node: a snapshot file is refused with what to give instead', async () => {
    const r = await nodescope(['node', 'pods.json']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('node needs a live node (an ssh destination or unix:SOCKET), not the file pods.json');
  }, 60_000);
});
