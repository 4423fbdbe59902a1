/**
 * `nodescope node SOURCE`: the node's context around its pods: the kubelet's version, health, effective
 * configuration and feature gates (is the Pods API gate on?), the container runtime, the kubelet's unit
 * and journal tail, and the runtime's containers against the kubelet's pods. Read through the same SSH
 * connection as the pods, with fixed read-only commands (app/node-info/node-commands.ts); with unix:SOCKET
 * (Nodescope on the node itself) the same commands run here.
 */
import { stringify as yamlStringify } from 'yaml';
import { announcingRunner } from '../node-info/command-runner';
import { nodeContextText } from '../node-info/node-context-text';
import { createNodeInfoReader, DEFAULT_JOURNAL_LINES, type NodeInfoOptions } from '../node-info/node-info-reader';
import { EXIT } from './exit-codes';
import { restDialSettings, type KubeletConnection } from './kubelet-connection';
import type { SshTarget } from '../ssh/ssh-connection';
import type { HopLabel } from '../ssh/ssh-errors';
import { runNodeCommand, writeStdout } from './node-command';
import type { NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { printError } from './terminal-text';
import type { KubeletRestConnection } from '../kubelet-rest/kubelet-rest-connection';
import type { SshSession } from '../ssh/ssh-session';

const OUTPUTS = ['table', 'json', 'yaml'] as const;

const EXTRA = {
  'journal-lines': { type: 'string' },
  crictl: { type: 'string' },
  'kubelet-binary': { type: 'string' },
} as const;

const EXTRA_HELP = `Reads, each part on its own (a part that fails says why; the others still show):
  the kubelet's version (KUBELET --version) and health (GET 127.0.0.1:10248/healthz over the SSH
  connection); its configuration (REST /configz with --token-file or --client-cert, else the file
  its --config names) and feature gates, and whether the PodsAPI gate is on; the container runtime
  (crictl version); the kubelet's unit (kubelet, k3s, k3s-agent, rke2-server, rke2-agent,
  snap.microk8s.daemon-kubelite) and its journal's tail; crictl ps -a against the kubelet's pods.
  Every command is fixed and read-only (docs/node-info.md); --sudo runs the root-only ones with sudo -n.
node:
  --journal-lines N          how many journal lines to show (default ${DEFAULT_JOURNAL_LINES})
  --crictl PATH              crictl on the node (default crictl; RKE2: /var/lib/rancher/rke2/bin/crictl)
  --kubelet-binary PATH      the kubelet binary to ask --version (default: the running kubelet's)
`;

/**
 * GET /configz through the kubelet REST API on the node's SSH session, with the credentials given as for
 * `--api rest`. It is on the authenticated port only and needs the configz (or proxy) permission. A REST
 * connection that cannot be opened (an unreadable token, a refused certificate) fails this part alone.
 */
async function configzReader(session: SshSession, target: SshTarget | HopLabel, opts: NodeCommandOptions) {
  const [{ openKubeletRest }, { terminalPrompter }] = await Promise.all([import('../kubelet-rest/kubelet-rest-connection'), import('./terminal-prompter')]);
  const prompter = terminalPrompter();
  let conn: KubeletRestConnection;
  try {
    conn = await openKubeletRest(target, {
      prompter,
      session,
      // -v shows the request (restDialSettings announces each).
      ...(await restDialSettings(opts)),
      ...(opts.callTimeoutMs ? { callTimeoutMs: opts.callTimeoutMs } : {}),
    });
  } catch (err) {
    prompter.close();
    return { configz: () => Promise.reject(err), close: async () => {} };
  }
  return {
    configz: () => conn.client.configz(),
    close: async () => {
      await conn.close();
      prompter.close();
    },
  };
}

function positiveInt(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new UsageError(`bad ${flag} '${String(value)}': give a whole number from 1 to 100000`);
  return n;
}

async function readNode(conn: KubeletConnection, opts: NodeCommandOptions & { extraValues: Record<string, unknown> }): Promise<number> {
  const v = opts.extraValues;
  if (opts.mask) throw new UsageError("node compares the runtime's containers with whole pods: leave out --mask");
  const journalLines = positiveInt(v['journal-lines'], '--journal-lines');
  const say = (line: string) => printError(`nodescope: ${line}`);
  const verbose = opts.verbose;
  // The node through the same capability the app's sources have: the pods' SSH session, or here with unix:/--local.
  const { openNodeAccess } = await import('../source/node-access');
  const node = await openNodeAccess(conn.session, {
    node: opts.node,
    sudo: opts.sudo,
    ...(opts.callTimeoutMs ? { callTimeoutMs: opts.callTimeoutMs } : {}),
    ...(opts.rest.tcpBridgeCommand ? { tcpBridgeCommand: opts.rest.tcpBridgeCommand } : {}),
  });
  const session = node.session;
  const options: NodeInfoOptions = {
    runner: verbose ? announcingRunner(node.commands, (line) => say(`running on the node: ${line}`)) : node.commands,
    sudo: node.sudo,
    httpGet: async (port, path) => {
      if (verbose) say(`GET http://127.0.0.1:${port}${path} on the node`);
      return node.httpGet(port, path);
    },
    pods: async () => (await conn.client.listPods()).pods.map((p) => p.pod),
    ...(journalLines ? { journalLines } : {}),
    ...(v.crictl !== undefined ? { programs: { crictl: String(v.crictl) } } : {}),
    ...(v['kubelet-binary'] !== undefined ? { kubeletBinary: String(v['kubelet-binary']) } : {}),
  };
  const rest = opts.rest;
  let closeRest: (() => Promise<void>) | undefined;
  if (session && (rest.credentials.token || rest.credentials.clientCert)) {
    const reader = await configzReader(session, conn.target!, opts);
    options.configz = reader.configz;
    closeRest = reader.close;
  }
  try {
    const context = await createNodeInfoReader(options).read();
    if (opts.output === 'json') await writeStdout(`${JSON.stringify(context, null, 2)}\n`);
    else if (opts.output === 'yaml') await writeStdout(yamlStringify(context, { lineWidth: 0 }));
    else await writeStdout(`${nodeContextText(context)}\n`);
  } finally {
    await closeRest?.();
  }
  return EXIT.ok;
}

export function run(argv: string[]): Promise<number> {
  return runNodeCommand({ name: 'node', usage: 'usage: nodescope node SOURCE [options]', outputs: OUTPUTS, extra: EXTRA, extraHelp: EXTRA_HELP, run: readNode }, argv);
}
