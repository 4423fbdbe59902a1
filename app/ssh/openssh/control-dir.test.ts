import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { controlDir, controlPathFor } from './control-dir';

const bases: string[] = [];
const base = () => {
  const b = mkdtempSync(join(tmpdir(), 'cd-'));
  bases.push(b);
  return b;
};
afterEach(() => {
  for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
});

describe('the control socket directory', () => {
  it('is made 0700, and made 0700 again when something opened it up', () => {
    const env = { XDG_RUNTIME_DIR: base() };
    const dir = controlDir(env);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    expect(controlDir(env)).toBe(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("is refused when another user made it: whoever can reach a master runs commands on the node as us", () => {
    const env = { XDG_RUNTIME_DIR: base() };
    const dir = join(env.XDG_RUNTIME_DIR, `nodescope-ssh-${process.getuid!()}`);
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    expect(() => controlDir(env)).toThrow(/not a directory of yours/);
  });

  it('holds control paths short enough for a UNIX socket (ssh binds the path plus 17 characters)', () => {
    const path = controlPathFor(controlDir({ XDG_RUNTIME_DIR: base() }), ['-F', '/some/config', '--', 'node']);
    expect(path.length + 17).toBeLessThanOrEqual(104);
    expect(controlPathFor('/d', ['a'])).not.toBe(controlPathFor('/d', ['b']));
  });
});
