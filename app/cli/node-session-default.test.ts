// Which SSH client a node command uses when --ssh names none: the user's own ssh wherever it is on PATH,
// else the built-in client, said once however many nodes the run reaches.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { nodescope } from './testing/run-nodescope';

let h: SshHarness;
let empty: string;

beforeAll(async () => {
  h = await startSshHarness({ startKubelet: (socketPath) => startSimulatedKubelet({ socketPath, pods: 4, seed: 2 }) });
  empty = await mkdtemp(join(tmpdir(), 'nodescope-no-ssh-'));
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await rm(empty, { recursive: true, force: true });
});

const pods = (env?: NodeJS.ProcessEnv) => nodescope(['pods', A.target, A.targetNoSudo, '-F', h.sshConfig, '--socket', h.socketPath, '-v', '-o', 'ndjson'], env ? { env } : {});

describe('the SSH client a node command uses by default', () => {
  it('is your own OpenSSH when ssh is on PATH', async () => {
    const r = await pods();
    expect(r.stderr).toContain(`reaching ${A.target} (root@${h.host}:${h.port}) with your OpenSSH client (--ssh openssh)`);
    expect(r.stderr).not.toContain('built-in');
  }, 30_000);

  it('is the built-in client when there is no ssh on PATH, said once', async () => {
    const r = await pods({ PATH: empty });
    expect(r.stderr.match(/no ssh on PATH: using Nodescope's built-in SSH client/g), r.stderr).toHaveLength(1);
    expect(r.stderr).toContain(`reaching ${A.target} (root@${h.host}:${h.port}) with Nodescope's built-in SSH client (--ssh builtin)`);
    expect(r.stdout.trim().split('\n').filter((l) => l.includes(`"source":"${A.target}"`)).length).toBeGreaterThan(0);
  }, 30_000);
});
