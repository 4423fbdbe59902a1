import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulatedKubelet, type SimulatedKubelet, type SimulatedKubeletOptions } from '../../app/sim/kubelet-server';
import { startCleanupWatchdog } from './cleanup-watchdog';
import { descendantsOf, signal } from './process-tree';
import { checkRequiredTools } from './required-tools';
import { runChecked, runCommand } from './run-command';
import { BASTION_SSHD_SETTINGS, TARGET_SSHD_DEFAULTS } from './ssh-harness';
import { generateKey, publicKeyLine } from './ssh-keys';
import { startSshd, type SshdInstance } from './sshd-process';
import { ensureSystemUser, HARNESS_USERS } from './system-users';

/**
 * Several test nodes, each with its own OpenSSH sshd and simulated kubelet, and a bastion that is the
 * only way to reach them (see isolation below).
 */

export interface FleetHostSpec {
  /** ssh_config alias and the kubelet's node name. */
  name: string;
  /** Simulator options; by default 20 pods from seed 1, so hosts given the same seed run the same workloads. */
  kubelet?: Partial<Omit<SimulatedKubeletOptions, 'socketPath' | 'nodeName'>>;
  /** Shapes the host's pods once they are generated: the known ways a test makes nodes differ. */
  edit?: (kubelet: SimulatedKubelet) => void;
}

export interface FleetHarnessOptions {
  hosts: FleetHostSpec[];
  /**
   * 'netns' (default): every host and the bastion in network namespaces of their own; this machine
   * reaches only the bastion. 'loopback': everything on loopback addresses, hosts reachable directly
   * too (aliases direct-NAME), cheaper for benchmarks; no link to cut.
   */
  isolation?: 'netns' | 'loopback';
}

export interface FleetHost {
  name: string;
  /** Where its sshd listens (reachable only from the bastion under 'netns'). */
  address: string;
  port: number;
  kubelet: SimulatedKubelet;
  /** The kubelet socket on this machine. */
  socketPath: string;
  /** The same socket as the host's sshd sees it: one path on every host under 'netns' (give it as --socket). */
  nodeSocketPath: string;
  logs(): string;
  /** SIGSTOPs the sshd and every session it runs: TCP still connects, nothing answers. */
  pause(): void;
  resume(): void;
  /** Takes the host's network link down inside its namespace: packets to it are dropped ('netns' only). */
  cutLink(): Promise<void>;
  restoreLink(): Promise<void>;
}

export interface FleetHarness {
  dir: string;
  hosts: FleetHost[];
  bastion: {
    address: string;
    port: number;
    logs(): string;
    /** Logins the bastion accepted so far (its VERBOSE log's "Accepted publickey" lines). */
    logins(): number;
    /** Drops every live session on the bastion, as a broken link would; it keeps accepting. */
    killConnections(): Promise<void>;
  };
  /** Where every host serves its kubelet socket under 'netns'; undefined under 'loopback' (each its own). */
  nodeSocketPath?: string;
  /** ssh_config: `bastion`, one alias per host (through the bastion), and with 'loopback' `direct-NAME`. */
  sshConfig: string;
  knownHosts: string;
  /** root's key on every host; the bastion's account uses `jumpKey`. */
  rootKey: string;
  jumpKey: string;
  stop(): Promise<void>;
}

const NAME = /^[a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?$/;
const MAX_HOSTS = 250;

/** A 10.N.0.0/16 no interface or route on this machine uses yet. */
async function freeSubnet(): Promise<number> {
  const routes = await runChecked('ip', ['-4', 'route', 'show', 'table', 'all']);
  for (let attempt = 0; attempt < 50; attempt++) {
    const n = 64 + Math.floor(Math.random() * 190);
    if (!routes.includes(`10.${n}.`)) return n;
  }
  throw new Error('no free 10.N.0.0/16 for the fleet harness; delete leftover nsf-* namespaces (ip netns list)');
}

/** Runs `ip` commands in one process (ip -batch), in `netns` or here: what keeps a hundred namespaces quick. */
async function ipBatch(lines: string[], netns?: string): Promise<void> {
  const r = await runCommand('ip', [...(netns ? ['-n', netns] : []), '-batch', '-'], { input: lines.join('\n') + '\n', timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`ip -batch failed: ${r.stderr.trim()}`);
}

export async function startFleetHarness(opts: FleetHarnessOptions): Promise<FleetHarness> {
  if (process.getuid?.() !== 0) throw new Error('the fleet harness must run as root (it starts sshd and creates network namespaces)');
  checkRequiredTools();
  const specs = opts.hosts;
  if (specs.length === 0 || specs.length > MAX_HOSTS) throw new Error(`the fleet harness takes 1 to ${MAX_HOSTS} hosts, got ${specs.length}`);
  for (const s of specs) if (!NAME.test(s.name)) throw new Error(`host name '${s.name}' must be lowercase letters, digits and dashes`);
  if (new Set(specs.map((s) => s.name)).size !== specs.length) throw new Error('host names must be unique');
  const isolation = opts.isolation ?? 'netns';

  const id = randomBytes(2).toString('hex');
  const dir = await mkdtemp(join(tmpdir(), 'nodescope-fleet-'));
  await chmod(dir, 0o711);
  const bastionNs = `nsf-${id}-b`;
  const hostNs = (i: number) => `nsf-${id}-${i + 1}`;
  const hostIf = (i: number) => `nf${id}n${i + 1}`;
  const namespaces = isolation === 'netns' ? [bastionNs, ...specs.map((_, i) => hostNs(i))] : [];
  const watchdog = startCleanupWatchdog(dir, '', '', namespaces);
  const sshds: SshdInstance[] = [];
  const kubelets: SimulatedKubelet[] = [];
  let nsCreated = false;
  let stopping: Promise<void> | undefined;

  const stop = () =>
    (stopping ??= (async () => {
      const errors: unknown[] = [];
      const attempt = async (f: () => Promise<unknown>) => f().catch((e) => void errors.push(e));
      for (const s of sshds) for (const pid of [s.pid, ...descendantsOf(s.pid)]) signal(pid, 'SIGCONT');
      await Promise.all(sshds.map((s) => attempt(() => s.stop())));
      await Promise.all(kubelets.map((k) => attempt(() => k.stop())));
      if (nsCreated) await attempt(() => ipBatch(namespaces.map((ns) => `netns del ${ns}`)));
      await attempt(() => rm(dir, { recursive: true, force: true }));
      watchdog.cancel();
      if (errors.length) throw new AggregateError(errors, 'fleet harness did not stop cleanly');
    })());

  try {
    await ensureSystemUser(HARNESS_USERS.jump);
    let bastionAddress: string;
    let hostAddress: (i: number) => string;
    if (isolation === 'netns') {
      const n = await freeSubnet();
      bastionAddress = `10.${n}.0.2`;
      hostAddress = (i) => `10.${n}.${i + 1}.2`;
      nsCreated = true;
      // This machine <-> bastion on a /16, so the hosts' addresses are on-link here and never follow the
      // default route out; nobody here answers for them, only the bastion's own links reach them.
      const lines = [
        ...namespaces.map((ns) => `netns add ${ns}`),
        `link add nf${id}r type veth peer name nf${id}b`,
        `link set nf${id}b netns ${bastionNs}`,
        `addr add 10.${n}.0.1/16 dev nf${id}r`,
        `link set nf${id}r up`,
      ];
      const inBastion = [`addr add ${bastionAddress}/16 dev nf${id}b`, `link set nf${id}b up`, 'link set lo up'];
      const inHost = specs.map((_, i) => [`addr add ${hostAddress(i)}/24 dev ${hostIf(i)}`, `link set ${hostIf(i)} up`, 'link set lo up']);
      specs.forEach((_, i) => {
        const side = `nf${id}h${i + 1}`;
        lines.push(`link add ${side} type veth peer name ${hostIf(i)}`, `link set ${side} netns ${bastionNs}`, `link set ${hostIf(i)} netns ${hostNs(i)}`);
        inBastion.push(`addr add 10.${n}.${i + 1}.1/24 dev ${side}`, `link set ${side} up`);
      });
      await ipBatch(lines);
      await ipBatch(inBastion, bastionNs);
      await Promise.all(inHost.map((l, i) => ipBatch(l, hostNs(i))));
    } else {
      const octet = 2 + Math.floor(Math.random() * 200);
      bastionAddress = `127.${octet}.0.1`;
      hostAddress = (i) => `127.${octet}.1.${i + 1}`;
    }

    const keys = join(dir, 'keys');
    const auth = join(dir, 'authorized_keys');
    const home = join(dir, 'home');
    await mkdir(keys, { mode: 0o700 });
    await mkdir(auth, { mode: 0o755 });
    await mkdir(home, { mode: 0o755 });
    const key = (name: string) => join(keys, name);
    await Promise.all([
      generateKey(key('root_ed25519'), 'nodescope-fleet-root'),
      generateKey(key('jump_ed25519'), 'nodescope-fleet-jump'),
      generateKey(key('bastion_host_ed25519'), 'nodescope-fleet-bastion-host'),
      ...specs.map((s) => generateKey(key(`host_${s.name}_ed25519`), `nodescope-fleet-host-${s.name}`)),
    ]);
    await writeFile(join(auth, 'root'), `${await publicKeyLine(key('root_ed25519'))}\n`, { mode: 0o644 });
    await writeFile(join(auth, HARNESS_USERS.jump), `${await publicKeyLine(key('jump_ed25519'))}\n`, { mode: 0o644 });

    const bastion = await startSshd({
      dir: join(dir, 'bastion'),
      address: bastionAddress,
      ...(isolation === 'netns' ? { netns: bastionNs, port: 22 } : {}),
      settings: {
        HostKey: key('bastion_host_ed25519'),
        AuthorizedKeysFile: `${auth}/%u`,
        AllowUsers: HARNESS_USERS.jump,
        ...TARGET_SSHD_DEFAULTS,
        ...BASTION_SSHD_SETTINGS,
        // Many nodes' channels ride one connection.
        MaxSessions: '1000',
      },
    });
    sshds.push(bastion);

    // Under netns each host's sshd sees its own kubelet directory here, as every real node has one path.
    const sharedSocketDir = join(dir, 'node-kubelet');
    if (isolation === 'netns') await mkdir(sharedSocketDir, { mode: 0o700 });
    const hosts: FleetHost[] = [];
    await Promise.all(
      specs.map(async (spec, i) => {
        const hostDir = join(dir, `host-${spec.name}`);
        const kubeletDir = join(hostDir, 'kubelet');
        await mkdir(kubeletDir, { recursive: true, mode: 0o700 });
        const socketPath = join(kubeletDir, 'kubelet.sock');
        const kubelet = await startSimulatedKubelet({ pods: 20, seed: 1, ...spec.kubelet, socketPath, nodeName: spec.name });
        kubelets.push(kubelet);
        spec.edit?.(kubelet);
        const address = hostAddress(i);
        const sshd = await startSshd({
          dir: join(hostDir, 'sshd'),
          address,
          ...(isolation === 'netns' ? { netns: hostNs(i), port: 22, bindMount: { source: kubeletDir, target: sharedSocketDir } } : {}),
          settings: {
            HostKey: key(`host_${spec.name}_ed25519`),
            AuthorizedKeysFile: `${auth}/%u`,
            AllowUsers: 'root',
            ...TARGET_SSHD_DEFAULTS,
            SetEnv: `HOME=${home}`,
          },
        });
        sshds.push(sshd);
        const tree = () => [sshd.pid, ...descendantsOf(sshd.pid)];
        const link = async (state: 'up' | 'down') => {
          if (isolation !== 'netns') throw new Error('cutLink needs the netns isolation');
          await runChecked('ip', ['-n', hostNs(i), 'link', 'set', hostIf(i), state]);
        };
        hosts[i] = {
          name: spec.name,
          address,
          port: sshd.port,
          kubelet,
          socketPath,
          nodeSocketPath: isolation === 'netns' ? join(sharedSocketDir, 'kubelet.sock') : socketPath,
          logs: sshd.logs,
          pause: () => {
            for (const pid of tree()) signal(pid, 'SIGSTOP');
          },
          resume: () => {
            for (const pid of tree()) signal(pid, 'SIGCONT');
          },
          cutLink: () => link('down'),
          restoreLink: () => link('up'),
        };
      }),
    );

    const hostKnown = (h: FleetHost) => (h.port === 22 ? h.address : `[${h.address}]:${h.port}`);
    const knownHosts = join(dir, 'known_hosts');
    const bastionKnown = bastion.port === 22 ? bastionAddress : `[${bastionAddress}]:${bastion.port}`;
    const knownLines = [`${bastionKnown} ${await publicKeyLine(key('bastion_host_ed25519'))}`];
    for (const h of hosts) knownLines.push(`${hostKnown(h)} ${await publicKeyLine(key(`host_${h.name}_ed25519`))}`);
    await writeFile(knownHosts, knownLines.join('\n') + '\n', { mode: 0o600 });

    const hostBlock = (alias: string, h: FleetHost, viaBastion: boolean) =>
      [`Host ${alias}`, `  HostName ${h.address}`, `  Port ${h.port}`, '  User root', `  IdentityFile ${key('root_ed25519')}`, ...(viaBastion ? ['  ProxyJump bastion'] : [])];
    const sshConfig = join(dir, 'ssh_config');
    await writeFile(
      sshConfig,
      [
        '# Written by the Nodescope fleet test harness.',
        'Host bastion',
        `  HostName ${bastionAddress}`,
        `  Port ${bastion.port}`,
        `  User ${HARNESS_USERS.jump}`,
        `  IdentityFile ${key('jump_ed25519')}`,
        ...hosts.flatMap((h) => hostBlock(h.name, h, true)),
        ...(isolation === 'loopback' ? hosts.flatMap((h) => hostBlock(`direct-${h.name}`, h, false)) : []),
        'Host *',
        '  IdentitiesOnly yes',
        '  IdentityAgent none',
        `  UserKnownHostsFile ${knownHosts}`,
        '  GlobalKnownHostsFile /dev/null',
        '  StrictHostKeyChecking yes',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );

    return {
      dir,
      hosts,
      bastion: {
        address: bastionAddress,
        port: bastion.port,
        logs: bastion.logs,
        logins: () => (bastion.logs().match(/Accepted publickey for /g) ?? []).length,
        killConnections: bastion.killConnections,
      },
      ...(isolation === 'netns' ? { nodeSocketPath: join(sharedSocketDir, 'kubelet.sock') } : {}),
      sshConfig,
      knownHosts,
      rootKey: key('root_ed25519'),
      jumpKey: key('jump_ed25519'),
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
