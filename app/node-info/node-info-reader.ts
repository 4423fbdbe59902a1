/**
 * Reads a node's context (node-context.ts) through a command runner and, where given, the kubelet's
 * HTTP endpoints over the same connection. Parts are read one after another, each using what the ones
 * before found (the config file needs the kubelet's command line); nothing runs at once on the connection,
 * as concurrent channels lost exit statuses (command-runner.ts). A part that fails says why and what to
 * do; it never stops the others.
 *
 *   const info = createNodeInfoReader({ runner: sshCommandRunner(client), sudo: false });
 *   const context = await info.read();
 */
import { CONFIGZ_FROM } from '../contract/node-context';
import { commandLine, type CommandRunner } from './command-runner';
import { containerDifference } from './container-difference';
import { parseCrictlContainers, parseCrictlVersion } from './crictl-output';
import { parseFeatureGateFlag, podsApiGate, type FeatureGates } from './feature-gates';
import { parseKubeletCmdline } from './kubelet-cmdline';
import { parseConfigz, parseKubeletConfigFile, type KubeletConfigFacts } from './kubelet-config';
import { KUBELET_UNITS, parseJournal, pickKubeletUnit } from './kubelet-journal';
import { CONFIG_MAX_BYTES, CONTAINER_LIST_MAX_BYTES, DEFAULT_PROGRAMS, nodeCommands, runChecked, runFixed, type NodePrograms } from './node-commands';
import { isRead, PartError, type KubeletHealth, type KubeletProcess, type NodeContext, type NodeInfo, type Part } from './node-context';

export const DEFAULT_HEALTHZ_PORT = 10248;
export const DEFAULT_JOURNAL_LINES = 50;

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface NodeInfoOptions {
  runner: CommandRunner;
  /** Run what needs root (the config file, crictl, the journal) through `sudo -n`. */
  sudo: boolean;
  programs?: Partial<NodePrograms>;
  /** The `kubelet` binary to ask for its version; default: the running kubelet's argv[0] when absolute, else `kubelet`. */
  kubeletBinary?: string;
  journalLines?: number;
  /** GET a path on a port of the node's loopback, plain HTTP (the kubelet's healthz port). */
  httpGet?: (port: number, path: string) => Promise<HttpAnswer>;
  /** The body of the kubelet REST API's `/configz`, where credentials for it were given. */
  configz?: () => Promise<string>;
  /** The kubelet's pods, as kubectl's JSON objects (the Pods API or REST list). */
  pods?: () => Promise<unknown[]>;
}

const NO_SYSTEMD = 'Without a systemd unit the kubelet logs to files under /var/log (RKE2: /var/lib/rancher/rke2/agent/logs/kubelet.log).';

const KUBELET_VERSION = /Kubernetes (v\d+\.\d+\.\d+\S*)/;

/** A part's outcome: its value, or why it is missing. */
async function part<T>(from: string | (() => string), read: () => Promise<T>): Promise<Part<T>> {
  try {
    const value = await read();
    return { from: typeof from === 'string' ? from : from(), value };
  } catch (err) {
    if (err instanceof PartError) return { error: err.message, ...(err.nextStep ? { nextStep: err.nextStep } : {}) };
    const e = err as Error & { nextStep?: string };
    return { error: e.message, ...(typeof e.nextStep === 'string' ? { nextStep: e.nextStep } : {}) };
  }
}

/** The value of a part another part needs, or a PartError naming which part is missing. */
function needed<T>(p: Part<T>, what: string): T {
  if (isRead(p)) return p.value;
  throw new PartError(`${what} was not read (${p.error})`, p.nextStep);
}

export function createNodeInfoReader(o: NodeInfoOptions): NodeInfo {
  const programs = { ...DEFAULT_PROGRAMS, ...o.programs };
  const cmd = nodeCommands(programs, o.journalLines ?? DEFAULT_JOURNAL_LINES);
  const root = { sudo: o.sudo };

  const readProcess = async (): Promise<KubeletProcess> => {
    let out;
    try {
      out = await runFixed(o.runner, cmd.findKubelet);
    } catch (err) {
      // pgrep exits 1 when nothing matches: that is an answer, not a failure.
      if (err instanceof PartError && /exit code 1$/.test(err.message)) {
        throw new PartError('no process named kubelet runs on the node', 'k3s, RKE2 and MicroK8s run the kubelet inside their own process: its config is then read from /configz (give REST credentials, see --token-file).');
      }
      throw err;
    }
    const pid = Number(out.trim().split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0) throw new PartError(`pgrep printed '${out.trim()}', not a process ID`);
    const cmdline = parseKubeletCmdline(await runFixed(o.runner, cmd.cmdline(pid), { maxStdoutBytes: CONFIG_MAX_BYTES }));
    const p: KubeletProcess = { pid, binary: cmdline.binary };
    if (cmdline.configPath) p.configPath = cmdline.configPath;
    if (cmdline.runtimeEndpoint) p.runtimeEndpoint = cmdline.runtimeEndpoint;
    if (cmdline.featureGates) p.featureGatesFlag = cmdline.featureGates;
    return p;
  };

  const readConfig = async (process: Part<KubeletProcess>): Promise<{ from: string; facts: KubeletConfigFacts }> => {
    let refused: string | undefined;
    if (o.configz) {
      try {
        return { from: CONFIGZ_FROM, facts: parseConfigz(await o.configz()) };
      } catch (err) {
        refused = (err as Error).message;
      }
    }
    const before = refused ? `/configz: ${refused}; ` : '';
    const proc = needed(process, `${before}the kubelet's command line (for its --config file)`);
    if (!proc.configPath) throw new PartError(`${before}the kubelet runs without --config, so all its settings are flags and defaults`, 'Give REST credentials (--token-file or --client-cert) to read the effective configuration from /configz.');
    const text = await runFixed(o.runner, cmd.readFile(proc.configPath), { ...root, maxStdoutBytes: CONFIG_MAX_BYTES });
    // The file is what the kubelet started with; flags and /configz may differ, so a refused /configz is named.
    return { from: `${proc.configPath} (--config of the running kubelet${refused ? `; not /configz: ${refused}` : ''})`, facts: parseKubeletConfigFile(text, proc.configPath) };
  };

  const readHealth = async (config: Part<{ facts: KubeletConfigFacts }>): Promise<KubeletHealth> => {
    if (!o.httpGet) throw new PartError('the healthz port is not reachable from this source');
    const port = isRead(config) ? (config.value.facts.healthzPort ?? DEFAULT_HEALTHZ_PORT) : DEFAULT_HEALTHZ_PORT;
    if (port === 0) throw new PartError('the kubelet serves no healthz endpoint (healthzPort: 0 in its config)');
    const r = await o.httpGet(port, '/healthz');
    const body = r.body.trim().slice(0, 4096);
    return { healthy: r.status === 200 && body === 'ok', status: r.status, body };
  };

  return {
    async read(): Promise<NodeContext> {
      const process = await part('pgrep and /proc/PID/cmdline', readProcess);
      // Where the configuration came from is known only once it is read: its `from` is the value's own.
      const configRead = await part('', () => readConfig(process));
      const config: Part<Record<string, unknown>> = isRead(configRead) ? { from: configRead.value.from, value: configRead.value.facts.config } : configRead;
      const facts = isRead(configRead) ? configRead.value.facts : undefined;
      const proc = isRead(process) ? process.value : undefined;
      const binary = o.kubeletBinary ?? (proc?.binary.startsWith('/') ? proc.binary : 'kubelet');
      const endpoint = facts?.runtimeEndpoint ?? proc?.runtimeEndpoint;

      const version = await part(cmd.version(binary).join(' '), async () => {
        const out = await runFixed(o.runner, cmd.version(binary));
        const m = KUBELET_VERSION.exec(out);
        if (!m) throw new PartError(`\`${binary} --version\` printed '${out.trim().slice(0, 200)}', not "Kubernetes vX.Y.Z"`, 'Give the kubelet binary with --kubelet-binary.');
        return m[1]!;
      });
      const health = await part(() => `GET http://127.0.0.1:${facts?.healthzPort ?? DEFAULT_HEALTHZ_PORT}/healthz`, () => readHealth(configRead));
      const runtime = await part(cmd.crictl(endpoint, 'version').join(' '), async () => ({
        ...parseCrictlVersion(await runFixed(o.runner, cmd.crictl(endpoint, 'version'), root)),
        ...(endpoint ? { endpoint } : {}),
      }));
      const journal = await part(() => `${cmd.units.join(' ')}; journalctl -u UNIT`, async () => {
        const units = await runFixed(o.runner, cmd.units).catch((err: unknown) => {
          if (err instanceof PartError && /not been booted with systemd|Failed to connect to bus/.test(err.message)) throw new PartError(err.message, NO_SYSTEMD);
          throw err;
        });
        const unit = pickKubeletUnit(units, KUBELET_UNITS);
        if (!unit) throw new PartError(`none of the kubelet's units is loaded (${KUBELET_UNITS.join(', ')})`, NO_SYSTEMD);
        const argv = cmd.journal(unit.unit);
        const { stdout, stderr } = await runChecked(o.runner, argv, { ...root, maxStdoutBytes: CONFIG_MAX_BYTES });
        // Without the right to read the system journal, journalctl exits 0 with "-- No entries --": not an empty journal.
        if (/insufficient permissions|not seeing messages from other users/i.test(stderr)) {
          throw new PartError(`\`${commandLine(argv, root)}\` may not read the system journal: ${stderr.trim().split('\n')[0]}`,
            "Log in as root, give --sudo (sudoers must allow journalctl without a password), or add the SSH user to the group 'systemd-journal' or 'adm'.");
        }
        return { unit, lines: parseJournal(stdout) };
      });
      const containers = await part(`${cmd.crictl(endpoint, 'ps', '-a', '-o', 'json').join(' ')} and the kubelet's pods`, async () => {
        if (!o.pods) throw new PartError("the kubelet's pods are not read from this source");
        const runtimeJson = await runFixed(o.runner, cmd.crictl(endpoint, 'ps', '-a', '-o', 'json'), { ...root, maxStdoutBytes: CONTAINER_LIST_MAX_BYTES });
        const pods = await o.pods();
        return containerDifference(parseCrictlContainers(runtimeJson), pods);
      });
      const gates = await part(() => (facts ? `${isRead(config) ? config.from : ''}${proc?.featureGatesFlag ? ' and --feature-gates' : ''}` : '--feature-gates'), async () => {
        // Gates from the flag override the config file's, as in the kubelet.
        let merged: FeatureGates | undefined = facts ? { ...facts.featureGates } : undefined;
        if (proc?.featureGatesFlag) merged = { ...merged, ...parseFeatureGateFlag(proc.featureGatesFlag) };
        if (!merged) throw new PartError("neither the kubelet's configuration nor its command line was read (see CONFIG)", isRead(config) ? undefined : config.nextStep);
        return { gates: merged, podsApi: podsApiGate(merged, isRead(version) ? version.value : undefined) };
      });
      return { process, version, health, config, featureGates: gates, runtime, journal, containers };
    },
  };
}
