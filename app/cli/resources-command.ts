/**
 * `nodescope resources NODE`: what the kubelet's PodResources API says each container holds (devices
 * with their IDs and NUMA nodes, exclusive CPUs, pinned memory), and the node's allocatable against
 * what is taken. Read over SSH from the root-only socket, through the sudo bridge for non-root users.
 */
import { resourcesTables } from './resources-table';
import { summarizeNodeResources } from '../podresources/node-resources-summary';
import { createPodResourcesClient } from '../podresources/pod-resources-client';
import { POD_RESOURCES_SOCKET } from '../podresources/pod-resources-api';
import { dialPodResources } from '../source/kubelet-node/dial-kubelet-node';
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import { sessionToNode } from './node-session';
import { needsLiveNode, writeStdout } from './node-command';
import { resolveSource } from './pod-source';
import { nodeOptionsHelp, parseNodeArgs } from './node-options';
import { terminalPrompter } from './terminal-prompter';

const OUTPUTS = ['table', 'json'] as const;
const HELP = `usage: nodescope resources NODE [options]

Reads the kubelet's PodResources API (--socket, default ${POD_RESOURCES_SOCKET}) over SSH: per container
the devices (resource, device IDs, NUMA nodes), exclusive CPUs and pinned memory, then the node's
allocatable against what is taken. The socket is root-only: non-root users need --sudo.
On the node itself, name the socket: nodescope resources unix:${POD_RESOURCES_SOCKET} (or --local PATH).

${nodeOptionsHelp(OUTPUTS)}`;

export async function run(argv: string[]): Promise<number> {
  let opts;
  try {
    opts = await parseNodeArgs(argv, OUTPUTS);
  } catch (err) {
    return reportFailure('resources', err, true);
  }
  if (opts.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  // unix:PATH is the PodResources socket on this machine, as --local PATH is (not a host name to look up).
  const source = resolveSource(opts.node, opts.local);
  if (source.kind === 'file') return reportFailure('resources', needsLiveNode('resources', source.path));
  if (source.kind === 'unix') {
    const client = createPodResourcesClient({ target: source.path, socketPath: source.path });
    try {
      return await print(client, opts.output);
    } catch (err) {
      return reportFailure('resources', err);
    } finally {
      client.close();
    }
  }
  const socketPath = opts.socketPath ?? POD_RESOURCES_SOCKET;
  const prompter = terminalPrompter();
  try {
    const { target, session } = await sessionToNode(opts, prompter);
    const pr = await dialPodResources(target, socketPath, { sudo: opts.sudo, ...(opts.sudoCommand ? { sudoTemplate: opts.sudoCommand } : {}) }, { prompter, session });
    try {
      return await print(pr.client, opts.output);
    } finally {
      await pr.close();
    }
  } catch (err) {
    return reportFailure('resources', err);
  } finally {
    prompter.close();
  }
}

async function print(client: ReturnType<typeof createPodResourcesClient>, output: string): Promise<number> {
  const [pods, allocatable] = await Promise.all([client.list(), client.allocatable()]);
  const node = summarizeNodeResources(pods, allocatable);
  if (output === 'json') {
    await writeStdout(`${JSON.stringify({ podResources: pods, allocatable, node }, null, 2)}\n`);
  } else {
    await writeStdout(`${resourcesTables(pods, node)}\n`);
  }
  return EXIT.ok;
}

