import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { openKubeletTransport, type KubeletTransport, type KubeletTransportOptions } from './kubelet-transport';
import { discoverKubeletSockets } from './remote-socket-probe';
import type { BridgeEvent } from './socket-bridge';
import type { SshTarget } from './ssh-connection';
import { resolveSshTarget } from './ssh-target';
import { SshError } from './ssh-errors';
import { pollUntil } from '../testing/poll-until';
import type { SessionState } from './ssh-session';
import { harnessHop, harnessTarget, roundTrip, scriptedPrompter, startEchoSocket } from './testing/ssh-test-kit';

describe('openKubeletTransport (real sshd, real sockets)', () => {
  let h: SshHarness;
  const open: KubeletTransport[] = [];

  beforeAll(async () => {
    h = await startSshHarness({ startKubelet: startEchoSocket });
  });
  afterAll(async () => {
    await Promise.all(open.map((t) => t.close()));
    await h?.stop();
  });

  async function transport(t: SshTarget, opts: Partial<KubeletTransportOptions> = {}): Promise<KubeletTransport> {
    const tr = await openKubeletTransport(t, { socketPath: h.socketPath, prompter: scriptedPrompter(), ...opts });
    open.push(tr);
    return tr;
  }

  it('reaches a root-only socket as root over streamlocal, and closes the session on close', async () => {
    const t = await transport(harnessTarget(h, h.root));
    expect(await roundTrip(t.open, 'hello kubelet')).toBe('hello kubelet');
    expect(t.bridge.activeMode()).toBe('streamlocal');
    expect(t.session.state()).toEqual({ state: 'connected' });
    await t.close();
    expect(t.session.state()).toEqual({ state: 'closed' });
  });

  it('finds the socket among candidates when none is given, over the same SSH connection', async () => {
    const t = await openKubeletTransport(harnessTarget(h, h.root), {
      prompter: scriptedPrompter(),
      socketCandidates: ['/var/lib/kubelet/pods-api/nodescope-test-missing.sock', h.socketPath],
    });
    open.push(t);
    expect(t.socketPath).toBe(h.socketPath);
    expect(await roundTrip(t.open, 'found it')).toBe('found it');
  });

  it('switches a non-root operator to the sudo socat bridge automatically and says so', async () => {
    const events: BridgeEvent[] = [];
    const t = await transport(harnessTarget(h, h.operator), { onBridgeEvent: (e) => events.push(e) });
    const payload = 'x'.repeat(200_000);
    expect(await roundTrip(t.open, payload)).toBe(payload);
    expect(t.bridge.activeMode()).toBe('sudo');
    expect(events[0]).toMatchObject({ type: 'switched-to-sudo', command: `sudo -n socat STDIO UNIX-CONNECT:'${h.socketPath}'` });
  });

  it('tells a user without sudo rights the exact sudoers line that would let them in', async () => {
    const t = await transport(harnessTarget(h, h.noSudo));
    expect(await roundTrip(t.open, 'x')).toBe('');
    const err = t.lastError() as SshError;
    expect(err.code).toBe('SUDO_REFUSED');
    expect(err.nextStep).toContain(`${h.noSudo.name} ALL=(root) NOPASSWD: /usr/bin/socat STDIO UNIX-CONNECT\\:${h.socketPath}`);
  });

  it('keeps the sudo refusal from the bridge stderr when sudo mode is forced', async () => {
    const t = await transport(harnessTarget(h, h.noSudo), { bridgeMode: 'sudo' });
    expect(await roundTrip(t.open, 'x')).toBe('');
    // The exit status may arrive after the stream ends: waited for, not slept on (a busy machine is slower).
    const err = (await pollUntil('the bridge failure recorded', () => t.lastError(), (e) => e !== null && e !== undefined)) as SshError;
    expect(err.code).toBe('SUDO_REFUSED');
    expect(err.message).toContain('sudo: a password is required');
  });

  it('uses a configured bridge command template', async () => {
    const events: BridgeEvent[] = [];
    const t = await transport(harnessTarget(h, h.root), {
      bridgeMode: 'sudo',
      sudoTemplate: 'socat - UNIX-CONNECT:{socket}',
      onBridgeEvent: (e) => events.push(e),
    });
    expect(await roundTrip(t.open, 'templated')).toBe('templated');
    expect(t.bridge.activeMode()).toBe('sudo');
    expect(events).toEqual([]);
  });

  it('says the user may not open the socket when streamlocal is forced', async () => {
    const t = await transport(harnessTarget(h, h.operator), { bridgeMode: 'streamlocal' });
    expect(await roundTrip(t.open, 'x')).toBe('');
    const err = t.lastError()!;
    expect(err.code).toBe('SOCKET_PERMISSION');
    expect(err.message).toBe(`${h.operator.name} may not open ${h.socketPath} on ${h.host}`);
    expect(t.bridge.activeMode()).toBe('streamlocal');
  });

  it('reports a missing socket by its path', async () => {
    const missing = join(dirname(h.socketPath), 'nope.sock');
    const t = await transport(harnessTarget(h, h.root), { socketPath: missing });
    expect(await roundTrip(t.open, 'x')).toBe('');
    expect((t.lastError() as SshError).code).toBe('SOCKET_MISSING');
    expect(t.lastError()!.message).toContain(missing);
  });

  it('goes through the jump host, with its own key', async () => {
    const t = await transport(harnessTarget(h, h.root, { proxyJump: [harnessHop(h, h.jump, h.jumpPort)] }));
    expect(await roundTrip(t.open, 'via jump')).toBe('via jump');
    expect(h.logs()).toMatch(/Accepted publickey for nsharness-jump/);
  });

  it('reaches the node through an ssh_config alias: ProxyJump, key, known_hosts and user all from the config', async () => {
    const target = await resolveSshTarget(HARNESS_HOST_ALIASES.viaJumpOperator, { configFile: h.sshConfig });
    expect(target.proxyJump.map((j) => j.port)).toEqual([h.jumpPort]);
    const t = await transport(target);
    expect(await roundTrip(t.open, 'configured')).toBe('configured');
    expect(t.bridge.activeMode()).toBe('sudo');
  });

  it('refuses a ProxyCommand host with the alternative instead of ignoring it', async () => {
    const config = join(dirname(h.sshConfig), 'proxycommand_config');
    writeFileSync(config, `Host pc\n  HostName ${h.host}\n  ProxyCommand nc %h %p\n`);
    await expect(resolveSshTarget('pc', { configFile: config })).rejects.toThrow(/ProxyCommand .* use ProxyJump instead/);
  });

  // As the operator: root's login shell on this machine runs `pyenv rehash`, and killing it midway leaves a stale lock.
  it('re-dials on the next stream after the SSH connection was killed', async () => {
    const t = await transport(harnessTarget(h, h.operator));
    expect(await roundTrip(t.open, 'before')).toBe('before');
    const states: SessionState[] = [];
    t.session.onState((s) => states.push(s));
    const first = await t.session.connection();
    await h.killConnections();
    expect((await first.closed)?.code).toBe('CONNECTION_LOST');
    expect(t.lastError()?.code).toBe('CONNECTION_LOST');
    expect(await roundTrip(t.open, 'after')).toBe('after');
    expect(t.lastError()).toBeNull();
    expect(states.map((s) => s.state)).toEqual(['reconnecting', 'connecting', 'connected']);
    expect(await t.session.connection()).not.toBe(first);
  });

  it('discovers which candidate sockets exist for the SSH user', async () => {
    const t = await transport(harnessTarget(h, h.root));
    const missing = join(dirname(h.socketPath), 'nope.sock');
    const rootView = await discoverKubeletSockets((await t.session.connection()).channels, [missing, h.socketPath]);
    expect(rootView.map((p) => [p.path, p.access])).toEqual([[missing, 'missing'], [h.socketPath, 'writable']]);
    const op = await transport(harnessTarget(h, h.operator));
    const operatorView = await discoverKubeletSockets((await op.session.connection()).channels, [h.socketPath, '/nonexistent/x.sock']);
    expect(operatorView.map((p) => p.access)).toEqual(['noperm', 'missing']);
  });
});

describe('openKubeletTransport when sshd forbids UNIX socket forwarding', () => {
  it('says streamlocal forwarding is disabled instead of blaming the socket', async () => {
    const h = await startSshHarness({ sshdOptions: { AllowStreamLocalForwarding: 'no' }, startKubelet: startEchoSocket });
    try {
      const t = await openKubeletTransport(harnessTarget(h, h.root), {
        socketPath: h.socketPath,
        prompter: scriptedPrompter(),
      });
      expect(await roundTrip(t.open, 'x')).toBe('');
      const err = t.lastError() as SshError;
      expect(err.code).toBe('FORWARDING_DISABLED');
      expect(err.nextStep).toContain('AllowStreamLocalForwarding yes');
      await t.close();
    } finally {
      await h.stop();
    }
  });
});

describe('openKubeletTransport when sshd runs a forced command instead', () => {
  it('does not guess why the channel was refused when the check cannot run', async () => {
    const h = await startSshHarness({
      sshdOptions: { AllowStreamLocalForwarding: 'no', ForceCommand: '/bin/false' },
      startKubelet: startEchoSocket,
    });
    try {
      const t = await openKubeletTransport(harnessTarget(h, h.root), { socketPath: h.socketPath, prompter: scriptedPrompter() });
      expect(await roundTrip(t.open, 'x')).toBe('');
      const err = t.lastError()!;
      expect(err.code).toBe('STREAMLOCAL_REFUSED');
      expect(err.message).toContain('exit 1');
      await t.close();
    } finally {
      await h.stop();
    }
  });
});
