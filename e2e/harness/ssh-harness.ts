import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCleanupWatchdog } from './cleanup-watchdog';
import { checkRequiredTools } from './required-tools';
import { signKey, type SshCa } from './ssh-ca';
import { generateKey, publicKeyLine } from './ssh-keys';
import { startSshd, type SshdInstance } from './sshd-process';
import { installSudoersRule, newSudoersPath, socatSudoRule } from './sudoers-rule';
import { createPasswordUser, ensureSystemUser, HARNESS_USERS, removeUser } from './system-users';

export interface HarnessUser {
  name: string;
  /** Private key path, unencrypted ed25519. */
  key: string;
}

export interface SshHarness {
  /** Temp dir holding everything; 0711 so sshd can read users' authorized_keys as them, keys/ and kubelet/ are 0700. */
  dir: string;
  /** Loopback address both sshds listen on (127.0.0.1 unless `address` was given). */
  host: string;
  /** Target sshd. */
  port: number;
  /** Second sshd acting as jump host: its only user may open TCP forwards, nothing else. */
  jumpPort: number;
  /** Target's public host key, 'ssh-ed25519 AAAA...'. */
  hostKeyLine: string;
  /** All of the target's host keys: hostKeyLine first, then those asked for with extraHostKeyTypes. */
  hostKeyLines: string[];
  jumpHostKeyLine: string;
  /** known_hosts listing `[host]:port` for the target and the jump host. */
  knownHosts: string;
  root: HarnessUser;
  /** Non-root; may run exactly `sudo -n socat STDIO UNIX-CONNECT:<socketPath>`. */
  operator: HarnessUser & { encryptedKey: string; passphrase: string };
  /** Non-root without sudo rights. */
  noSudo: HarnessUser;
  /** Account on the jump sshd. */
  jump: HarnessUser;
  /** Only with `passwordUser: true`: a user of this harness alone, logging in by password or keyboard-interactive (PAM). */
  passwordUser?: { name: string; password: string };
  /** Root-only kubelet socket path inside a root-only (0700) dir. */
  socketPath: string;
  /** ssh_config with the Host aliases in HARNESS_HOST_ALIASES. */
  sshConfig: string;
  logs(): string;
  /** Kills sshd's per-connection processes on both sshds, as a dropped link would. */
  killConnections(): Promise<void>;
  /** Stops (SIGSTOP) sshd's per-connection processes on both sshds, as a hung sshd or a cut link looks: nothing answers. New connections are served. */
  pauseConnections(): void;
  /** Lets the processes pauseConnections() stopped run again. */
  resumeConnections(): void;
  /** Stops everything and removes the sudoers rule and temp dir; idempotent. */
  stop(): Promise<void>;
}

export interface SshHarnessOptions {
  /** Extra or overriding target sshd_config keywords, e.g. { AllowStreamLocalForwarding: 'no' }; a list repeats the keyword. */
  sshdOptions?: Record<string, string | string[]>;
  /** Starts a kubelet stand-in on the socket path; the harness chmods the socket 0600 and stops it on stop(). */
  startKubelet?: (socketPath: string) => Promise<{ stop(): Promise<void> }>;
  /** Another loopback address (127.0.0.2, ...) for multi-node tests that need distinct hosts. */
  address?: string;
  /** More target host keys besides ed25519, e.g. ['rsa'] to test host key algorithm negotiation. */
  extraHostKeyTypes?: ('rsa' | 'ecdsa')[];
  /**
   * Creates a temporary user with a random password and turns on password and keyboard-interactive
   * authentication (via PAM) on the target sshd; the user is deleted again on stop().
   */
  passwordUser?: boolean;
  /**
   * Signs the target's ed25519 host key with this CA (see ssh-ca.ts; principal: the address) and serves the
   * certificate (HostCertificate), for `@cert-authority` known_hosts lines.
   */
  hostCertificateCa?: SshCa;
}

/** Host aliases in `sshConfig`; every one pins the harness known_hosts and StrictHostKeyChecking yes. */
export const HARNESS_HOST_ALIASES = {
  target: 'target',
  targetOperator: 'target-operator',
  targetNoSudo: 'target-nosudo',
  jump: 'jump',
  viaJump: 'via-jump',
  viaJumpOperator: 'via-jump-operator',
} as const;

/** A node's sshd: key logins, forwarding allowed, VERBOSE logs (tests count logins in them). */
export const TARGET_SSHD_DEFAULTS: Record<string, string> = {
  // /tmp is 1777, which StrictModes would reject for the authorized_keys path.
  StrictModes: 'no',
  PasswordAuthentication: 'no',
  KbdInteractiveAuthentication: 'no',
  PubkeyAuthentication: 'yes',
  PermitRootLogin: 'prohibit-password',
  UsePAM: 'no',
  AllowStreamLocalForwarding: 'yes',
  AllowTcpForwarding: 'yes',
  DisableForwarding: 'no',
  LogLevel: 'VERBOSE',
  MaxSessions: '100',
  MaxStartups: '100:30:200',
};

/** A bastion account: TCP forwarding only, no shell, pty, agent, X11 or UNIX sockets. */
export const BASTION_SSHD_SETTINGS: Record<string, string> = {
  AllowTcpForwarding: 'local',
  AllowStreamLocalForwarding: 'no',
  AllowAgentForwarding: 'no',
  X11Forwarding: 'no',
  PermitTTY: 'no',
  PermitTunnel: 'no',
  ForceCommand: '/bin/false',
};

function mergeOptions(base: Record<string, string | string[]>, overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const existing = Object.keys(out).find((k) => k.toLowerCase() === key.toLowerCase());
    if (existing) delete out[existing];
    out[key] = value;
  }
  return out;
}

function assertLoopback(address: string): void {
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address)) {
    throw new Error(`harness address ${address} is not a 127.x.y.z loopback address; tests must not send traffic elsewhere`);
  }
}

function sshConfigText(h: { host: string; port: number; jumpPort: number; knownHosts: string; root: string; operator: string; noSudo: string; jump: string }): string {
  const a = HARNESS_HOST_ALIASES;
  const target = (alias: string, user: string, key: string, viaJump: boolean) =>
    [`Host ${alias}`, `  HostName ${h.host}`, `  Port ${h.port}`, `  User ${user}`, `  IdentityFile ${key}`, ...(viaJump ? [`  ProxyJump ${a.jump}`] : [])];
  return [
    '# Written by the Nodescope ssh test harness.',
    ...target(a.target, 'root', h.root, false),
    ...target(a.targetOperator, HARNESS_USERS.operator, h.operator, false),
    ...target(a.targetNoSudo, HARNESS_USERS.noSudo, h.noSudo, false),
    `Host ${a.jump}`,
    `  HostName ${h.host}`,
    `  Port ${h.jumpPort}`,
    `  User ${HARNESS_USERS.jump}`,
    `  IdentityFile ${h.jump}`,
    ...target(a.viaJump, 'root', h.root, true),
    ...target(a.viaJumpOperator, HARNESS_USERS.operator, h.operator, true),
    'Host *',
    '  IdentitiesOnly yes',
    `  UserKnownHostsFile ${h.knownHosts}`,
    '  GlobalKnownHostsFile /dev/null',
    '  StrictHostKeyChecking yes',
    '',
  ].join('\n');
}

/**
 * Starts a real OpenSSH target sshd and a jump sshd on loopback, with generated keys, test users and
 * a narrow sudo rule. Must run as root. Call stop() when done; a watchdog cleans up if the process dies.
 */
export async function startSshHarness(opts: SshHarnessOptions = {}): Promise<SshHarness> {
  const host = opts.address ?? '127.0.0.1';
  assertLoopback(host);
  if (process.getuid?.() !== 0) throw new Error('the ssh harness must run as root (it starts sshd and creates test users)');
  checkRequiredTools();

  const dir = await mkdtemp(join(tmpdir(), 'nodescope-sshd-'));
  // Traversable but not listable: sshd opens authorized_keys as the logging-in user.
  await chmod(dir, 0o711);
  const sudoersPath = newSudoersPath();
  const passwordUser = opts.passwordUser ? { name: `nsh-pw-${randomBytes(4).toString('hex')}`, password: randomBytes(18).toString('base64url') } : undefined;
  let passwordUserCreated = false;
  const watchdog = startCleanupWatchdog(dir, sudoersPath, passwordUser?.name);
  const sshds: SshdInstance[] = [];
  let kubelet: { stop(): Promise<void> } | undefined;
  let stopping: Promise<void> | undefined;

  const stop = () =>
    (stopping ??= (async () => {
      const errors: unknown[] = [];
      const attempt = async (f: () => Promise<unknown>) => f().catch((e) => void errors.push(e));
      await Promise.all(sshds.map((s) => attempt(() => s.stop())));
      if (kubelet) await attempt(() => kubelet!.stop());
      await attempt(() => rm(sudoersPath, { force: true }));
      if (passwordUserCreated) await attempt(() => removeUser(passwordUser!.name));
      await attempt(() => rm(dir, { recursive: true, force: true }));
      watchdog.cancel();
      if (errors.length) throw new AggregateError(errors, 'ssh harness did not stop cleanly');
    })());

  try {
    for (const name of Object.values(HARNESS_USERS)) await ensureSystemUser(name);
    if (passwordUser) {
      passwordUserCreated = true; // from here on stop() must remove it, even if creation half failed
      await createPasswordUser(passwordUser.name, passwordUser.password);
    }

    const keysDir = join(dir, 'keys');
    const kubeletDir = join(dir, 'kubelet');
    const authDir = join(dir, 'authorized_keys');
    const jumpAuthDir = join(dir, 'jump_authorized_keys');
    const sessionHome = join(dir, 'home');
    await mkdir(keysDir, { mode: 0o700 });
    await mkdir(kubeletDir, { mode: 0o700 });
    await mkdir(authDir, { mode: 0o755 });
    await mkdir(jumpAuthDir, { mode: 0o755 });
    await mkdir(sessionHome, { mode: 0o755 });

    const key = (name: string) => join(keysDir, name);
    const passphrase = `harness-${randomBytes(9).toString('base64url')}`;
    const extraHostKeys = (opts.extraHostKeyTypes ?? []).map((type) => ({ type, name: `target_host_${type}` }));
    await Promise.all([
      ...extraHostKeys.map((k) => generateKey(key(k.name), `nodescope-harness-target-host-${k.type}`, '', k.type)),
      generateKey(key('target_host_ed25519'), 'nodescope-harness-target-host'),
      generateKey(key('jump_host_ed25519'), 'nodescope-harness-jump-host'),
      generateKey(key('root_ed25519'), 'nodescope-harness-root'),
      generateKey(key('operator_ed25519'), 'nodescope-harness-operator'),
      generateKey(key('operator_encrypted_ed25519'), 'nodescope-harness-operator-encrypted', passphrase),
      generateKey(key('nosudo_ed25519'), 'nodescope-harness-nosudo'),
      generateKey(key('jump_ed25519'), 'nodescope-harness-jump'),
    ]);

    const hostCertificate = opts.hostCertificateCa
      ? await signKey(opts.hostCertificateCa, key('target_host_ed25519'), { identity: 'nodescope-harness-target', principals: [host], host: true })
      : undefined;
    const pub = (name: string) => publicKeyLine(key(name));
    const authorize = async (authDirectory: string, user: string, lines: string[]) =>
      writeFile(join(authDirectory, user), lines.join('\n') + '\n', { mode: 0o644 });
    await authorize(authDir, 'root', [await pub('root_ed25519')]);
    await authorize(authDir, HARNESS_USERS.operator, [await pub('operator_ed25519'), await pub('operator_encrypted_ed25519')]);
    await authorize(authDir, HARNESS_USERS.noSudo, [await pub('nosudo_ed25519')]);
    await authorize(jumpAuthDir, HARNESS_USERS.jump, [await pub('jump_ed25519')]);

    const socketPath = join(kubeletDir, 'kubelet.sock');
    await installSudoersRule(sudoersPath, socatSudoRule(HARNESS_USERS.operator, socketPath));

    if (opts.startKubelet) {
      kubelet = await opts.startKubelet(socketPath);
      // The non-root tests rely on the socket being root-only, whatever the stand-in did.
      if (await stat(socketPath).then(() => true, () => false)) await chmod(socketPath, 0o600);
    }

    const targetSettings = mergeOptions(
      {
        HostKey: [key('target_host_ed25519'), ...extraHostKeys.map((k) => key(k.name))],
        ...(hostCertificate ? { HostCertificate: hostCertificate } : {}),
        AuthorizedKeysFile: `${authDir}/%u`,
        AllowUsers: ['root', HARNESS_USERS.operator, HARNESS_USERS.noSudo, ...(passwordUser ? [passwordUser.name] : [])].join(' '),
        ...TARGET_SSHD_DEFAULTS,
        // Debian's sshd offers keyboard-interactive only through PAM; PAM also checks the password.
        ...(passwordUser ? { UsePAM: 'yes', PasswordAuthentication: 'yes', KbdInteractiveAuthentication: 'yes' } : {}),
        // Sessions get an empty HOME so the machine's dotfiles stay out: bash sources ~/.bashrc for
        // ssh commands, and e.g. a pyenv init there serialises concurrent root logins on a lock.
        SetEnv: `HOME=${sessionHome}`,
      },
      opts.sshdOptions,
    );
    sshds.push(await startSshd({ dir: join(dir, 'target'), address: host, settings: targetSettings }));
    sshds.push(
      await startSshd({
        dir: join(dir, 'jump'),
        address: host,
        settings: {
          HostKey: key('jump_host_ed25519'),
          AuthorizedKeysFile: `${jumpAuthDir}/%u`,
          AllowUsers: HARNESS_USERS.jump,
          ...TARGET_SSHD_DEFAULTS,
          ...BASTION_SSHD_SETTINGS,
        },
      }),
    );
    const [target, jumpSshd] = sshds as [SshdInstance, SshdInstance];

    const hostKeyLine = await pub('target_host_ed25519');
    const hostKeyLines = [hostKeyLine, ...(await Promise.all(extraHostKeys.map((k) => pub(k.name))))];
    const jumpHostKeyLine = await pub('jump_host_ed25519');
    const knownHosts = join(dir, 'known_hosts');
    await writeFile(knownHosts, `[${host}]:${target.port} ${hostKeyLine}\n[${host}]:${jumpSshd.port} ${jumpHostKeyLine}\n`, { mode: 0o600 });

    const sshConfig = join(dir, 'ssh_config');
    await writeFile(
      sshConfig,
      sshConfigText({
        host,
        port: target.port,
        jumpPort: jumpSshd.port,
        knownHosts,
        root: key('root_ed25519'),
        operator: key('operator_ed25519'),
        noSudo: key('nosudo_ed25519'),
        jump: key('jump_ed25519'),
      }),
      { mode: 0o600 },
    );

    return {
      dir,
      host,
      port: target.port,
      jumpPort: jumpSshd.port,
      hostKeyLine,
      hostKeyLines,
      jumpHostKeyLine,
      knownHosts,
      root: { name: 'root', key: key('root_ed25519') },
      operator: {
        name: HARNESS_USERS.operator,
        key: key('operator_ed25519'),
        encryptedKey: key('operator_encrypted_ed25519'),
        passphrase,
      },
      noSudo: { name: HARNESS_USERS.noSudo, key: key('nosudo_ed25519') },
      jump: { name: HARNESS_USERS.jump, key: key('jump_ed25519') },
      ...(passwordUser ? { passwordUser } : {}),
      socketPath,
      sshConfig,
      logs: () => `--- target sshd (port ${target.port}) ---\n${target.logs()}\n--- jump sshd (port ${jumpSshd.port}) ---\n${jumpSshd.logs()}`,
      killConnections: async () => {
        await Promise.all(sshds.map((s) => s.killConnections()));
      },
      pauseConnections: () => sshds.forEach((s) => s.pauseConnections()),
      resumeConnections: () => sshds.forEach((s) => s.resumeConnections()),
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
