import { createServer, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import type { SshHarness } from '../../../e2e/harness/ssh-harness';
import type { SshHop, SshTarget } from '../ssh-connection';
import type { HostKeyAnswer, SshPrompter } from '../ssh-prompter';

/** A kubelet stand-in that echoes bytes back, so a round trip proves the whole path. */
export async function startEchoSocket(socketPath: string): Promise<{ stop(): Promise<void> }> {
  const server: Server = createServer((sock) => {
    sock.on('error', () => {});
    sock.pipe(sock);
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  return { stop: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Sends `payload` through a stream `open` opens (a transport's) and collects what comes back ('' when the path fails). */
export async function roundTrip(open: () => Promise<Duplex>, payload: string): Promise<string> {
  const s = await open().catch(() => null);
  if (!s) return '';
  return new Promise((resolve) => {
    let got = '';
    s.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.length >= payload.length) {
        s.destroy();
        resolve(got);
      }
    });
    s.on('error', () => resolve(got));
    s.on('close', () => resolve(got));
    s.write(payload);
  });
}

export interface ScriptedPrompter extends SshPrompter {
  asked: { hostKey: unknown[]; passphrase: unknown[]; keyboard: unknown[] };
}

/** Answers from a script, like a user would, and records every question. */
export function scriptedPrompter(answers: { passphrases?: (string | null)[]; hostKey?: HostKeyAnswer[] } = {}): ScriptedPrompter {
  const passphrases = [...(answers.passphrases ?? [])];
  const hostKeys = [...(answers.hostKey ?? [])];
  const asked: ScriptedPrompter['asked'] = { hostKey: [], passphrase: [], keyboard: [] };
  return {
    asked,
    hostKey: async (info) => (asked.hostKey.push(info), hostKeys.shift() ?? 'refuse'),
    passphrase: async (info) => (asked.passphrase.push(info), passphrases.shift() ?? null),
    keyboardInteractive: async (info) => (asked.keyboard.push(info), null),
  };
}

export function harnessHop(h: SshHarness, user: { name: string; key: string }, port = h.port): SshHop {
  return {
    host: h.host,
    port,
    user: user.name,
    identityFiles: [user.key],
    identityAgent: 'none',
    knownHostsFiles: [h.knownHosts],
    strictHostKeyChecking: 'yes',
  };
}

export function harnessTarget(h: SshHarness, user: { name: string; key: string }, extra: Partial<SshTarget> = {}): SshTarget {
  return { ...harnessHop(h, user), proxyJump: [], ...extra };
}

/** A loopback port nothing listens on: bound once, then released. */
export function closedPort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, host, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
