/**
 * The contract's node.info: the node's context around its pods (app/node-info), read through the source's
 * own way to its node (NodeReachable: the pods' SSH session, or here for a socket on this machine), the same
 * reader `nodescope node` runs. A node read through the kubelet's REST API gives its effective configuration
 * and feature gates from `/configz` (the file is read only when that fails, and says so). A kind with no node to ask (the demo, a file) and a node not connected are
 * answered as `unavailable` with the reason and what to do; each part that fails says why on its own.
 */
import { sourceCan } from '../source/kinds/source-kinds';
import { ContractError, CANCELLED_BY_CALLER, LOG_LINE_CHARS_MAX, type JournalFollowEnd, type NodeContextRead, type NodeContextView, type NodeInfo, type RequestHandlers } from '../contract';
import { commandLine } from '../node-info/command-runner';
import { parseJournalLine } from '../node-info/kubelet-journal';
import { DEFAULT_PROGRAMS, nodeCommands, type NodePrograms } from '../node-info/node-commands';
import { createNodeInfoReader, DEFAULT_JOURNAL_LINES } from '../node-info/node-info-reader';
import { PartError } from '../node-info/node-context';
import { TextLines } from '../logs/text-lines';
import type { NodeAccess } from '../source/node-access';

export interface NodeInfoServiceDeps {
  /** The node's record (throws not-found for an unknown id). */
  node(nodeId: string): NodeInfo;
  /** The node beside its kubelet through the live link; undefined when it has none now. */
  nodeAccess(nodeId: string): Promise<NodeAccess | undefined>;
  /** The kubelet's pods as kubectl's JSON, and whether they came through a field mask (then not whole). */
  pods(nodeId: string): Promise<{ pods: unknown[]; masked: boolean }>;
  /** Aborted when the node's current link closes (disconnected, removed): what follows its node ends then. */
  linkClosed(nodeId: string): AbortSignal | undefined;
  /** Where the node's programs are, when not on its PATH (tests: stand-ins). */
  programs?: Partial<NodePrograms>;
}

type Unavailable = { status: 'unavailable'; message: string; nextStep: string };

export function nodeInfoHandlers(deps: NodeInfoServiceDeps): Pick<RequestHandlers, 'node.info' | 'node.journalFollow'> {
  const programs = { ...DEFAULT_PROGRAMS, ...deps.programs };
  const cmd = nodeCommands(programs, DEFAULT_JOURNAL_LINES);

  /** The node's access, or why this source has none now. */
  const accessOf = async (nodeId: string): Promise<NodeAccess | Unavailable> => {
    const node = deps.node(nodeId);
    if (!sourceCan(node.spec, 'nodeInfo')) {
      return {
        status: 'unavailable',
        message: `Node information is not available for this kind of source: ${node.label} is ${node.spec.kind === 'demo' ? 'the simulated demo node, which has no node of its own' : 'a file of pods, with no node to ask'}.`,
        nextStep: 'Open a node over SSH or a Pods API socket on this machine to see its kubelet, runtime and journal.',
      };
    }
    const access = await deps.nodeAccess(nodeId);
    return access ?? { status: 'unavailable', message: `${node.label} is not connected, so its node cannot be asked.`, nextStep: 'Connect the node, then open Node info again.' };
  };

  return {
    'node.info': async ({ nodeId }): Promise<NodeContextRead> => {
      const access = await accessOf(nodeId);
      if ('status' in access) return access;
      const reader = createNodeInfoReader({
        programs,
        runner: access.commands,
        sudo: access.sudo,
        httpGet: (port, path) => access.httpGet(port, path),
        ...(access.configz ? { configz: access.configz } : {}),
        ...(access.allocatable ? { allocatable: access.allocatable } : {}),
        pods: async () => {
          const { pods, masked } = await deps.pods(nodeId);
          // A masked pod may lack its container statuses: every container would look runtime-only.
          if (masked) throw new PartError("the node's pods are fetched through a field mask, so they may not name their containers", 'Clear the node\'s mask to compare the runtime\'s containers with its pods.');
          return pods;
        },
      });
      const context: NodeContextView = await reader.read();
      return { status: 'read', context };
    },
    // Until the caller cancels (the panel closed, Follow off: the command stops on the node), the node's link
    // closes, or journalctl ends.
    'node.journalFollow': async ({ nodeId, unit }, call): Promise<JournalFollowEnd> => {
      const access = await accessOf(nodeId);
      if ('status' in access) return access;
      const linkClosed = deps.linkClosed(nodeId);
      const stop = linkClosed ? AbortSignal.any([call.signal, linkClosed]) : call.signal;
      const argv = cmd.journalFollow(unit);
      const options = { sudo: access.sudo };
      const text = new TextLines(LOG_LINE_CHARS_MAX);
      const send = (lines: string[]) => lines.length && !call.signal.aborted && call.progress({ lines: lines.map(parseJournalLine) });
      const end = await access.commands.stream(argv, options, (chunk) => send(text.push(chunk)), stop);
      if (call.signal.aborted) throw new ContractError('cancelled', CANCELLED_BY_CALLER);
      send(text.flush());
      const line = commandLine(argv, options);
      const said = end.stderr.trim().split('\n').slice(-2).join(' ');
      // A link that closed stopped the command (here it was killed; over SSH its channel went).
      const code = linkClosed?.aborted ? null : end.code;
      if (code === 127) return { status: 'unavailable', message: `journalctl is not on ${access.node}, so its journal cannot be followed (\`${line}\`).`, nextStep: 'A node without systemd logs to files under /var/log: read the kubelet\'s there.' };
      return {
        status: 'ended',
        message: code === null ? `Following the journal stopped: the node's connection closed (\`${line}\`).` : `journalctl stopped (exit code ${code}${said ? `: ${said}` : ''}) while following \`${line}\`.`,
        nextStep: code === null ? 'Turn Follow on again once the node is live.' : 'Turn Follow on again; if it stops again, run that command on the node to see why.',
      };
    },
  };
}
