// A host whose sshd finishes the key exchange and then never answers authentication (a wedged sshd, a
// stalled PAM or directory lookup): the CLI gives up on it at its ConnectTimeout, says so with the next
// step and exits 3, and the other sources are still printed. Straight, behind a jump host, and as the
// jump host itself. The hostile sshd is a small ssh2 server (testing/silent-auth-sshd.ts); the good
// nodes are real OpenSSH in front of the simulated kubelet.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { startSilentAuthSshd, type SilentAuthSshd } from '../ssh/testing/silent-auth-sshd';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

let h: SshHarness;
let sim: SimulatedKubelet;
let hung: SilentAuthSshd;
let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-hung-login-'));
  h = await startSshHarness({ startKubelet: async (socketPath) => (sim = await startSimulatedKubelet({ socketPath, pods: 6, seed: 5 })) });
  hung = await startSilentAuthSshd(h.host);
  const knownHosts = join(dir, 'known_hosts');
  await writeFile(knownHosts, `[${hung.host}]:${hung.port} ${hung.hostKeyLine}\n${await readFile(h.knownHosts, 'utf8')}`);
  // The hung host's key is known, so only its silence at authentication stands in the way. A short
  // ConnectTimeout keeps the test quick; the good hosts keep the 20 s default.
  const hungHost = (alias: string, extra: string[] = []) =>
    [`Host ${alias}`, `  HostName ${hung.host}`, `  Port ${hung.port}`, '  User root', `  IdentityFile ${h.root.key}`, `  UserKnownHostsFile ${knownHosts}`, '  ConnectTimeout 2', ...extra];
  config = join(dir, 'ssh_config');
  await writeFile(config, [
    ...hungHost('hung'),
    ...hungHost('hung-via-jump', [`  ProxyJump ${A.jump}`]),
    'Host via-hung-bastion',
    `  HostName ${h.host}`,
    `  Port ${h.port}`,
    '  User root',
    `  IdentityFile ${h.root.key}`,
    '  ProxyJump hung',
    '',
    await readFile(h.sshConfig, 'utf8'),
  ].join('\n'));
}, 60_000);
afterAll(async () => {
  await hung?.stop();
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

const run = (...sources: string[]) => nodescope(['pods', ...sources, '-F', config, '--socket', h.socketPath, '-o', 'ndjson']);
const loginTimeout = (port: number) => `${hung.host}:${port} did not finish the SSH login of root within 2 s (no answer to authentication)`;

describe('a host that never answers authentication', () => {
  it('is given up at its ConnectTimeout, with the cause and the next step, exit 3', async () => {
    const r = await run('hung');
    expect(r.code, r.stderr).toBe(EXIT.connection);
    expect(r.stderr).toContain(`nodescope pods: ${loginTimeout(hung.port)}`);
    expect(r.stderr).toContain('next step: ');
    expect(r.stderr).toContain('ConnectTimeout');
    expect(hung.authRequests()).toBeGreaterThan(0);
  }, 30_000);

  it('does not hold back the other sources: the good one is printed, the hung one reported', async () => {
    const r = await run(A.target, 'hung');
    expect(r.code).toBe(EXIT.connection);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { source: string; error?: string });
    expect(lines.filter((l) => l.source === A.target)).toHaveLength(sim.store.size);
    expect(lines.filter((l) => l.source === 'hung')).toEqual([{ source: 'hung', error: loginTimeout(hung.port) }]);
    expect(r.stderr).toContain(`nodescope pods: hung: ${loginTimeout(hung.port)}`);
  }, 30_000);

  it('is given up behind a jump host too, while a node behind the same jump host is printed', async () => {
    const r = await run(A.viaJump, 'hung-via-jump');
    expect(r.code).toBe(EXIT.connection);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { source: string; error?: string });
    expect(lines.filter((l) => l.source === A.viaJump)).toHaveLength(sim.store.size);
    expect(lines.filter((l) => l.source === 'hung-via-jump')).toEqual([{ source: 'hung-via-jump', error: loginTimeout(hung.port) }]);
  }, 30_000);

  it('is given up as a jump host, the message naming the jump host', async () => {
    const r = await run('via-hung-bastion');
    expect(r.code, r.stderr).toBe(EXIT.connection);
    expect(r.stderr).toContain(`nodescope pods: ${loginTimeout(hung.port)}`);
  }, 30_000);
});
