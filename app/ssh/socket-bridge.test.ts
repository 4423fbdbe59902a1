import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { sudoersLine } from './socket-bridge';

describe('the sudoers line offered for the sudo bridge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodescope-sudoers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is accepted by visudo even when the socket path holds characters sudoers treats as syntax', () => {
    const line = sudoersLine('ops', '/run/pods api/a=b,c.sock', undefined, '/usr/bin/socat');
    // socat's escapes (`\ ` `\=` `\,`): its backslash doubled for fnmatch, both doubled for sudoers, then sudoers' own.
    expect(line).toBe(String.raw`ops ALL=(root) NOPASSWD: /usr/bin/socat STDIO UNIX-CONNECT\:/run/pods\\\\\ api/a\\\\\=b\\\\\,c.sock`);
    const file = join(dir, 'rule');
    writeFileSync(file, `${line}\n`, { mode: 0o440 });
    // visudo exits non-zero (and execFileSync throws with its complaint) on a syntax error.
    expect(() => execFileSync('visudo', ['-cf', file], { stdio: 'pipe' })).not.toThrow();
  });

  it('allows exactly the custom bridge command when one is configured', () => {
    const line = sudoersLine('ops', '/var/lib/kubelet/pods-api/pods-api.sock', 'sudo -n /usr/bin/nc -U {socket}');
    expect(line).toBe('ops ALL=(root) NOPASSWD: /usr/bin/nc -U /var/lib/kubelet/pods-api/pods-api.sock');
    const file = join(dir, 'rule-nc');
    writeFileSync(file, `${line}\n`, { mode: 0o440 });
    expect(() => execFileSync('visudo', ['-cf', file], { stdio: 'pipe' })).not.toThrow();
  });
});
