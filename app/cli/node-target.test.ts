import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveNodeTarget } from './kubelet-connection';
import { parseNodeArgs } from './node-options';
import { UsageError } from './usage-error';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'ssh_config');
writeFileSync(config, 'Host worker-1\n  User fromconfig\n  Port 2200\n');
const target = async (...argv: string[]) => resolveNodeTarget(await parseNodeArgs([...argv, '-F', config], ['table']));

describe('an ssh:// SOURCE', () => {
  it('carries its user and port over ssh_config, and the command line still wins', async () => {
    expect(await target('ssh://ops@worker-1:2222')).toMatchObject({ host: 'worker-1', user: 'ops', port: 2222 });
    expect(await target('ssh://worker-1')).toMatchObject({ host: 'worker-1', user: 'fromconfig', port: 2200 });
    expect(await target('ssh://ops@worker-1:2222', '-p', '22', '--login', 'root')).toMatchObject({ user: 'root', port: 22 });
  });

  it('is a usage error when it is not one', async () => {
    await expect(target('ssh://ops:secret@worker-1')).rejects.toThrow(UsageError);
  });
});
