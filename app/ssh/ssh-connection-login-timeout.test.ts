// The login is bounded by ConnectTimeout to the end of authentication, against a server that exchanges
// keys and then never answers (testing/silent-auth-sshd.ts); the time a question waits for the user is
// not counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSshConnection, type SshTarget } from './ssh-connection';
import type { SshError } from './ssh-errors';
import { scriptedPrompter } from './testing/ssh-test-kit';
import { startSilentAuthSshd, type SilentAuthSshd } from './testing/silent-auth-sshd';

let hung: SilentAuthSshd;
let dir: string;

beforeAll(async () => {
  hung = await startSilentAuthSshd();
  dir = mkdtempSync(join(tmpdir(), 'ns-login-timeout-'));
});
afterAll(async () => {
  await hung?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const target = (knownHosts: string): SshTarget => ({
  host: hung.host,
  port: hung.port,
  user: 'root',
  identityFiles: [],
  identityAgent: 'none',
  knownHostsFiles: [knownHosts],
  strictHostKeyChecking: 'ask',
  proxyJump: [],
});

describe('a server that never answers authentication', () => {
  it('fails the login at the connect timeout, saying so and what to check', async () => {
    const knownHosts = join(dir, 'known');
    writeFileSync(knownHosts, `[${hung.host}]:${hung.port} ${hung.hostKeyLine}\n`);
    const err = (await openSshConnection(target(knownHosts), { prompter: scriptedPrompter(), connectTimeoutMs: 300 }).catch((e: unknown) => e)) as SshError;
    expect(err.code).toBe('HANDSHAKE_TIMEOUT');
    expect(err.message).toBe(`${hung.host}:${hung.port} did not finish the SSH login of root within 0.3 s (no answer to authentication)`);
    expect(err.nextStep).toMatch(/ConnectTimeout/);
    expect(err.retryable).toBe(true);
  });

  it('does not count the time the user takes to answer the host key question', async () => {
    const knownHosts = join(dir, 'empty');
    writeFileSync(knownHosts, '');
    const scripted = scriptedPrompter({ hostKey: ['once'] });
    // The user takes several timeouts to decide; the login goes on once the answer is in.
    const slow = { ...scripted, hostKey: async (q: Parameters<typeof scripted.hostKey>[0]) => (await new Promise((r) => setTimeout(r, 1_000)), scripted.hostKey(q)) };
    const before = hung.authRequests();
    const err = (await openSshConnection(target(knownHosts), { prompter: slow, connectTimeoutMs: 300 }).catch((e: unknown) => e)) as SshError;
    expect(scripted.asked.hostKey).toHaveLength(1);
    // Authentication was attempted, so the question's wait did not end the connection.
    expect(hung.authRequests()).toBeGreaterThan(before);
    expect(err.code).toBe('HANDSHAKE_TIMEOUT');
  });
});
