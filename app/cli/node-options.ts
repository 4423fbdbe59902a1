/**
 * The options every node command shares (pods, get, watch, export, record): which source and how to reach
 * it (ssh's own -p -i -J -F, and --login for its -l, --local for a socket on this machine, --at for a recording), which socket and
 * API shape, the field mask and the output format.
 */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { FieldMaskError, type FieldMask } from '../mask/field-mask';
import { BUILT_IN_PRESETS, parseMaskWithPresets } from '../mask/mask-presets';
import { defaultStateDir } from '../host/state-dir';
import type { ApiChoice, SshTransportChoice } from '../contract/nodes';
import type { ApiShape } from '../kubelet/pods-api-methods';
import { parseApiFlag } from '../source/kubelet-node/api-choice';
import { secretSource, type RestCredentialSources } from '../kubelet-rest/rest-credentials';
import { UsageError } from './usage-error';

/** The shared options' help; `outputs` are the command's -o values, the first the default. */
export const nodeOptionsHelp = (outputs: readonly string[]) => `connection:
  --login USER               log in as USER (ssh's -l; default: ssh_config, then your user name;
                             USER@HOST as the source works too)
  -p PORT                    SSH port
  -i FILE                    identity file (may repeat)
  -J [USER@]HOST[:PORT]      jump host(s), comma-separated, as ssh -J
  -F FILE                    ssh_config file (default ~/.ssh/config)
  --known-hosts FILE         known_hosts file to check and remember host keys in
  --ssh openssh|builtin      which SSH client reaches the node: your own ssh (every ssh_config
                             setting holds: ProxyCommand, certificates, FIDO keys, ControlMaster),
                             or Nodescope's built-in one (default: openssh where ssh is on PATH)
  -v, --verbose              say how the node is reached: which SSH client and login (master),
                             socket and commands
  -vv                        and ssh's own debug lines of the login (OpenSSH transport)
  --local PATH               talk to a socket on this machine, without SSH (simulator, or on the node);
                             the same as giving unix:PATH as the source (here PATH may be relative)
kubelet:
  --socket PATH              the Pods API socket on the node (default: the first that exists of
                             /var/lib/kubelet/pods-api/pods-api.sock (shipped) and
                             /var/lib/kubelet/pods/kubelet.sock (documented; tried first with --api documented))
  --api pods|rest|auto       the Pods API socket, or the kubelet REST API (default auto: the Pods
                             API socket if the node has one, else REST)
  --api shipped|documented   the Pods API in that wire shape (default: found by asking); documented
                             also looks for its socket first
  --call-timeout SECONDS     how long the kubelet may take to answer a call, or stay silent in the
                             middle of an answer, before Nodescope gives up on it (default 30)
  --sudo                     reach the socket through sudo -n socat (non-root SSH users)
  --sudo-command CMD         the bridge command; {socket} is replaced by the socket path
                             (shell-quoted, and escaped for socat's address syntax when CMD
                             runs socat)
  --mask PATHS               field mask, e.g. metadata.name,status.phase; @NAME is a preset
                             (@readiness, or @readiness,metadata.labels to extend one; see
                             nodescope mask presets). Sent to a live kubelet and applied here too;
                             applied to a file's pods alike. A masked pod is not a full kubectl pod:
                             it holds exactly the selected fields (plus apiVersion and kind), as
                             kubectl prints them (JSON or YAML), and no zero values for fields left out.
kubelet REST API (--api rest, or auto on a node without the Pods API):
  --kubelet-port PORT        the kubelet's port on the node's loopback (default 10250)
  --read-only                the read-only port: plain HTTP, no credentials (default port 10255)
  --token-file FILE          bearer token; node:PATH reads it on the node with sudo -n cat
  --client-cert FILE         client certificate (PEM), with --client-key FILE; node:PATH as above
  --kubelet-ca FILE          CA that signs the kubelet's serving certificate; without it the
                             certificate is shown on first use and pinned, like an SSH host key
  --kubelet-pins FILE        the pinned certificates (default ~/.config/nodescope/kubelet_certificates)
  --tcp-bridge-command CMD   run on the node where sshd forbids TCP forwarding
                             (default 'socat STDIO TCP:127.0.0.1:{port}')
  --poll-interval SECONDS    how often watch polls /pods (default 2)
files (a snapshot or recording path as the source):
  --at TIME                  a recording's pods at TIME: RFC 3339, or +5m from its start (default: its end)
output:
  -o, --output FORMAT        ${outputs.join(', ')} (default ${outputs[0]})
  --show-managed-fields      keep metadata.managedFields in JSON
  -h, --help`;

const OPTIONS = {
  // Not -l: that is kubectl's label selector (pod-selection.ts).
  login: { type: 'string' },
  port: { type: 'string', short: 'p' },
  identity: { type: 'string', short: 'i', multiple: true },
  jump: { type: 'string', short: 'J' },
  config: { type: 'string', short: 'F' },
  'known-hosts': { type: 'string' },
  ssh: { type: 'string' },
  // Repeatable, as ssh's: -vv adds ssh's own debug lines.
  verbose: { type: 'boolean', short: 'v', multiple: true, default: [] },
  local: { type: 'string' },
  at: { type: 'string' },
  socket: { type: 'string' },
  api: { type: 'string', default: 'auto' },
  'call-timeout': { type: 'string' },
  sudo: { type: 'boolean', default: false },
  'sudo-command': { type: 'string' },
  mask: { type: 'string' },
  'kubelet-port': { type: 'string' },
  'read-only': { type: 'boolean', default: false },
  'token-file': { type: 'string' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  'kubelet-ca': { type: 'string' },
  'kubelet-pins': { type: 'string' },
  'tcp-bridge-command': { type: 'string' },
  'poll-interval': { type: 'string' },
  output: { type: 'string', short: 'o' },
  'show-managed-fields': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export interface NodeCommandOptions {
  /** The node: an ssh destination (alias, host, user@host); for --local, a label. */
  node: string;
  /** Positionals after the node (get's UID). */
  args: string[];
  ssh: { user?: string; port?: number; identityFiles?: string[]; proxyJump?: string; configFile?: string; knownHosts?: string };
  /** --ssh: the SSH client to use; absent: the user's ssh when on PATH. */
  sshTransport?: SshTransportChoice;
  /** -v: how the node is reached (which SSH client, socket, commands). */
  verbose: boolean;
  /** -vv: ssh's own debug lines of the login too (the master runs with -v whatever this says). */
  sshDebug: boolean;
  local?: string;
  /** --at: the instant of a recording to show. */
  at?: string;
  socketPath?: string;
  /** --call-timeout: how long a kubelet call may go unanswered (both APIs); the client's default without it. */
  callTimeoutMs?: number;
  /** Which kubelet API (app/source/kubelet-node/api-choice.ts). */
  api: ApiChoice;
  /** The Pods API's wire shape, when one was asked for (`--api shipped|documented`). */
  shape?: ApiShape;
  rest: RestCliOptions;
  sudo: boolean;
  sudoCommand?: string;
  mask?: FieldMask;
  output: string;
  showManagedFields: boolean;
  help: boolean;
}

/**
 * The presets saved in the app, for `--mask @NAME`; a broken file is the user's to fix, so it is a usage error.
 * Loaded only then: their validation brings zod, a large share of a start that never needs it.
 */
async function savedPresets() {
  const { loadSavedPresetsSync } = await import('../host/saved-presets');
  try {
    return loadSavedPresetsSync(defaultStateDir()).presets;
  } catch (err) {
    throw new UsageError(`cannot read the saved mask presets: ${(err as Error).message}; repair or remove that file, or use the built-in presets`);
  }
}

export interface RestCliOptions {
  port?: number;
  readOnly: boolean;
  credentials: RestCredentialSources;
  caFile?: string;
  pinsFile?: string;
  tcpBridgeCommand?: string;
  pollIntervalMs?: number;
}


function restOptions(v: Record<string, unknown>): RestCliOptions {
  const out: RestCliOptions = { readOnly: v['read-only'] === true, credentials: {} };
  if (v['kubelet-port'] !== undefined) {
    const port = Number(v['kubelet-port']);
    if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) throw new UsageError(`bad --kubelet-port '${String(v['kubelet-port'])}': use a number from 1 to 65535`);
    out.port = port;
  }
  if (v['token-file'] !== undefined) out.credentials.token = secretSource(String(v['token-file']));
  if (v['client-cert'] !== undefined) out.credentials.clientCert = secretSource(String(v['client-cert']));
  if (v['client-key'] !== undefined) out.credentials.clientKey = secretSource(String(v['client-key']));
  const c = out.credentials;
  if (c.token && (c.clientCert || c.clientKey)) throw new UsageError('give --token-file or --client-cert/--client-key, not both');
  if (!c.clientCert !== !c.clientKey) throw new UsageError('--client-cert and --client-key go together');
  if (out.readOnly && (c.token || c.clientCert)) throw new UsageError('--read-only takes no credentials: leave out --token-file and --client-cert');
  if (v['kubelet-ca'] !== undefined) out.caFile = String(v['kubelet-ca']);
  if (v['kubelet-pins'] !== undefined) out.pinsFile = String(v['kubelet-pins']);
  if (v['tcp-bridge-command'] !== undefined) {
    const cmd = String(v['tcp-bridge-command']);
    if (!cmd.includes('{port}')) throw new UsageError(`--tcp-bridge-command must contain {port}, e.g. 'socat STDIO TCP:127.0.0.1:{port}'`);
    out.tcpBridgeCommand = cmd;
  }
  if (v['poll-interval'] !== undefined) {
    const seconds = Number(v['poll-interval']);
    if (!(Number.isFinite(seconds) && seconds >= 0.1) || String(v['poll-interval']).trim() === '') throw new UsageError(`bad --poll-interval '${String(v['poll-interval'])}': give seconds, at least 0.1`);
    out.pollIntervalMs = Math.round(seconds * 1000);
  }
  return out;
}

export type ExtraOptions = ParseArgsConfig['options'];

/**
 * Parses a node command's argv. `outputs` are the -o values it accepts (the first is the default);
 * `extra` are the command's own options, returned as `extraValues`.
 */
export async function parseNodeArgs(
  argv: string[],
  outputs: readonly string[],
  extra: ExtraOptions = {},
  argCount = 0,
): Promise<NodeCommandOptions & { extraValues: Record<string, unknown> }> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...OPTIONS, ...extra } });
  } catch (err) {
    const message = (err as Error).message;
    // ssh habit: -l was the login before it became kubectl's label selector.
    if (/^Unknown option '-l'/.test(message)) throw new UsageError("this command takes no -l: that is kubectl's label selector (pods, export); to log in as USER, give --login USER or USER@HOST");
    throw new UsageError(message);
  }
  const v = parsed.values as Record<string, unknown>;
  const help = v.help === true;
  // With --local there is no SSH destination: a name for the node is optional (it only labels output).
  const named = !v.local || parsed.positionals.length > argCount;
  const [node, ...args] = named ? parsed.positionals : ['local', ...parsed.positionals];
  // A --hosts-file (pods, compare) may name every source itself.
  if (!node && !help && v['hosts-file'] === undefined) throw new UsageError('which source? give an ssh destination (host, user@host or an ssh_config alias), unix:SOCKET or a snapshot or recording file');
  const output = (v.output as string | undefined) ?? outputs[0]!;
  // -o custom-columns=SPEC carries its columns in the value.
  if (!outputs.includes(output.startsWith('custom-columns=') ? 'custom-columns=SPEC' : output)) throw new UsageError(`unknown output format '${output}': use ${outputs.join(', ')}`);
  const choice = parseApiFlag(v.api as string);
  if (!choice) throw new UsageError(`unknown --api '${String(v.api)}': use pods, rest or auto, or a Pods API shape: shipped or documented`);
  const { api, shape } = choice;
  const rest = restOptions(v);
  if (v.local && api === 'rest') throw new UsageError('--local talks to a Pods API socket on this machine; the REST API is reached over SSH');
  let port: number | undefined;
  if (v.port !== undefined) {
    port = Number(v.port);
    if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) throw new UsageError(`bad port '${String(v.port)}' for -p: use a number from 1 to 65535`);
  }
  let callTimeoutMs: number | undefined;
  if (v['call-timeout'] !== undefined) {
    const seconds = Number(v['call-timeout']);
    if (!(Number.isFinite(seconds) && seconds >= 0.1) || String(v['call-timeout']).trim() === '') throw new UsageError(`bad --call-timeout '${String(v['call-timeout'])}': give seconds, at least 0.1`);
    callTimeoutMs = Math.round(seconds * 1000);
  }
  const sshTransport = v.ssh as string | undefined;
  if (sshTransport !== undefined && sshTransport !== 'openssh' && sshTransport !== 'builtin') throw new UsageError(`unknown --ssh '${sshTransport}': use openssh (your ssh) or builtin`);
  const socketPath = v.socket as string | undefined;
  if (socketPath !== undefined && !socketPath.startsWith('/')) throw new UsageError(`--socket must be an absolute path on the node, got '${socketPath}'`);
  const sudoCommand = v['sudo-command'] as string | undefined;
  if (sudoCommand !== undefined && !sudoCommand.includes('{socket}')) {
    throw new UsageError(`--sudo-command must contain {socket} where the socket path goes, e.g. 'sudo -n socat STDIO UNIX-CONNECT:{socket}'`);
  }
  let mask: FieldMask | undefined;
  if (v.mask !== undefined && String(v.mask).trim() !== '') {
    try {
      const text = String(v.mask);
      mask = parseMaskWithPresets(text, text.includes('@') ? [...BUILT_IN_PRESETS, ...(await savedPresets())] : BUILT_IN_PRESETS);
    } catch (err) {
      if (err instanceof FieldMaskError) throw new UsageError(`bad --mask: ${err.message}`);
      throw err;
    }
  }
  const verbosity = (v.verbose as boolean[]).length;
  const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as T;
  return {
    node: node ?? '',
    args,
    ssh: defined({
      user: v.login as string | undefined,
      port,
      identityFiles: v.identity as string[] | undefined,
      proxyJump: v.jump as string | undefined,
      configFile: v.config as string | undefined,
      knownHosts: v['known-hosts'] as string | undefined,
    }),
    // A relative --local is taken from here: the gRPC client would read a bare 'pods.sock' as a host name.
    ...defined({ sshTransport: sshTransport as SshTransportChoice | undefined, local: v.local === undefined ? undefined : resolve(v.local as string), at: v.at as string | undefined, socketPath, callTimeoutMs, sudoCommand, mask, shape }),
    api,
    rest,
    sudo: v.sudo === true,
    verbose: verbosity >= 1,
    sshDebug: verbosity >= 2,
    output,
    showManagedFields: v['show-managed-fields'] === true,
    help,
    extraValues: v,
  };
}
