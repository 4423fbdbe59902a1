import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  ContractError,
  type NodeInfo,
  type NodeSpec,
  type NodeState,
  type PodDetail,
  type Prompt,
  type RequestHandlers,
} from '../contract';
import { summarizePod } from '../contract/summarize-pod';
import { podToKubectlJson } from '../pod/kubectl-json';
import packageJson from '../../package.json';
import type { AppCore, AppEvent } from './app-core';
import { startDemoKubelet, type DemoKubelet } from './demo-node';
import { checkMask, maskView } from './node-mask';
import type { NodeLink, NodeLinkRequest } from './node-link';
import { NodePods } from './node-pods';
import { openKubeletNodeLink } from './kubelet-node-link';
import { chooseExportTarget, writeExport } from './pod-export';
import { PromptBroker } from './prompt-broker';
import { AppNotices } from './app-notices';
import { whyCannotWrite } from '../fs/write-error';
import { loadSavedNodes, saveNodes, savedNodesPath, setAsideSavedNodes, type LoadedNode } from './saved-nodes';
import { listSshHosts } from './ssh-hosts';

export interface InspectorOptions {
  mode: 'electron' | 'browser';
  /** Where the added nodes are remembered. */
  stateDir: string;
  /** Where exports go by default; the user's Downloads (or home). */
  defaultExportDir?: string;
  /** A native save dialog (Electron); null when cancelled. Without it exports need a path. */
  pickSavePath?: (suggestedPath: string) => Promise<string | null>;
  /** The ssh_config to read (like ssh -F); default ~/.ssh/config. */
  sshConfigFile?: string;
  /**
   * Start the simulated demo node right away: 'firstStart' (default) when no node is remembered
   * yet, so a new user sees something live; true always; false never (nodes.startDemo still can).
   */
  demo?: boolean | 'firstStart';
  /**
   * How a node that is not the demo is reached; default: over SSH. Tests put a simulated kubelet on
   * this machine behind added nodes, to check what the UI relies on without an SSH server.
   */
  openLink?: (request: NodeLinkRequest) => NodeLink;
}

export interface Inspector extends AppCore {
  close(): Promise<void>;
}

interface NodeRecord {
  info: NodeInfo;
  pods: NodePods;
  /** The current connection; reports from an older one (closed, replaced) are ignored. */
  link: NodeLink | null;
  session: object | null;
  /** What the connection itself last reported; shown again once a question is answered. */
  linkState: NodeState;
  /** The question the node waits on; while set, the sidebar shows it instead of linkState. */
  prompt: Prompt | null;
  /** Its saved mask did not parse and it waits, unconnected, for the user to set one or connect. */
  maskLeftOff: boolean;
  /** That saved mask as it was read, saved back unchanged until the user sets a mask or connects. */
  keptMask?: unknown;
}

const DEMO_ID = 'demo';

/**
 * The app core behind the UI: the nodes, their connection states, pod sets and questions for the
 * user, served to Electron main and the browser-mode server through the contract.
 */
export async function createInspector(options: InspectorOptions): Promise<Inspector> {
  const listeners = new Set<(event: AppEvent) => void>();
  const emit = (event: AppEvent) => {
    for (const listener of listeners) listener(event);
  };
  const nodes = new Map<string, NodeRecord>();
  const exportDir = options.defaultExportDir ?? [join(homedir(), 'Downloads'), homedir()].find((d) => existsSync(d)) ?? homedir();
  let demo: DemoKubelet | null = null;
  const openLink = options.openLink ?? ((request: NodeLinkRequest) => openKubeletNodeLink(request, options.sshConfigFile ? { sshConfigFile: options.sshConfigFile } : {}));
  let nextId = 1;

  const publish = (record: NodeRecord) => emit({ name: 'nodeState', payload: structuredClone(record.info) });
  const setState = (record: NodeRecord, state: NodeState) => {
    record.info.state = state;
    publish(record);
  };

  const showState = (record: NodeRecord) => {
    const { prompt } = record;
    setState(record, prompt ? { phase: 'waitingForUser', waitingFor: prompt.kind, promptId: prompt.id } : record.linkState);
  };
  const linkReported = (record: NodeRecord, state: NodeState) => {
    record.linkState = state;
    showState(record);
  };

  const prompts = new PromptBroker(emit, (nodeId: string, prompt: Prompt | null) => {
    const record = nodes.get(nodeId);
    if (!record) return;
    record.prompt = prompt;
    showState(record);
  });

  // The pod count in the sidebar follows the pod batches, so it changes at most once per frame.
  const emitFromPods = (event: AppEvent) => {
    emit(event);
    if (event.name !== 'podDeltas') return;
    const record = nodes.get(event.payload.nodeId);
    if (record && record.pods.size !== record.info.podCount) {
      record.info.podCount = record.pods.size;
      publish(record);
    }
  };

  const recordOf = (nodeId: string): NodeRecord => {
    const record = nodes.get(nodeId);
    if (!record) throw new ContractError('not-found', `There is no node ${nodeId}.`, 'It was removed; pick a node from the list.');
    return record;
  };

  const notices = new AppNotices(emit);
  /** Set when the saved list could be neither read nor moved aside: saving would write over it. */
  let keepSavedListAsItIs = false;

  // Saves run one after another, so the file always ends with the latest list.
  let saving = Promise.resolve();
  const persist = () => {
    if (keepSavedListAsItIs) return saving;
    const saved = [...nodes.values()]
      .filter((r) => !r.info.simulated)
      .map((r) => ({ spec: r.info.spec, mask: r.info.mask, ...(r.keptMask !== undefined ? { keptMask: r.keptMask } : {}) }));
    saving = saving
      .then(() => saveNodes(options.stateDir, saved))
      .then(
        () => notices.clear('save-failed'),
        (err: unknown) => {
          const why = whyCannotWrite(err) ?? (err as Error).message;
          console.error(`nodescope: could not remember the node list: ${(err as Error).message}`);
          notices.raise(
            'save-failed',
            `Nodescope could not save the node list to ${savedNodesPath(options.stateDir)}: ${why}. The nodes and masks you see are kept until Nodescope closes; any list saved earlier is unchanged.`,
            'Free up space or fix the folder\'s permissions; the next change to a node saves the whole list again.',
          );
        },
      );
    return saving;
  };

  /**
   * The remembered nodes; an unreadable list is moved aside whole (never written over), the app starts
   * without it and says where the file went.
   */
  const loadRemembered = async (): Promise<LoadedNode[]> => {
    try {
      return await loadSavedNodes(options.stateDir);
    } catch (err) {
      const problem = (err as Error).message;
      try {
        const kept = await setAsideSavedNodes(options.stateDir);
        notices.raise(
          'saved-nodes-unreadable',
          `Your saved nodes could not be read (${problem}), so Nodescope started without them. The file is kept as ${kept}.`,
          'Add the nodes again, or repair that file and move it back to nodes.json while Nodescope is closed.',
        );
      } catch (moveErr) {
        keepSavedListAsItIs = true;
        if ((moveErr as NodeJS.ErrnoException).code === 'ENOENT') {
          // Another Nodescope on the same state folder read the same broken list and moved it first.
          notices.raise(
            'saved-nodes-unreadable',
            `Your saved nodes could not be read (${problem}); another Nodescope started at the same time has already set the file aside as nodes.json.unreadable-<time> in ${options.stateDir}. This one started without them and will not save nodes, so it cannot write over that one's list.`,
            'Close this window and use the other Nodescope, or close both and start one.',
          );
          return [];
        }
        notices.raise(
          'saved-nodes-unreadable',
          `Your saved nodes could not be read (${problem}) nor moved aside (${(moveErr as Error).message}). Nodescope started without them and will not save nodes this time, so the file stays as it is.`,
          `Repair or remove ${savedNodesPath(options.stateDir)} while Nodescope is closed, then start it again.`,
        );
      }
      return [];
    }
  };

  const connect = async (record: NodeRecord) => {
    // A node in error has stopped trying until the user acts: connecting again starts afresh.
    if (record.session && record.info.state.phase !== 'error') return;
    if (record.session) {
      await closeLink(record);
      // Meanwhile another connect (a double click) may have started one, or the node was removed:
      // a second link here would replace that one's and leave it running unclosed.
      if (record.session || nodes.get(record.info.id) !== record) return;
    }
    const session = {};
    record.session = session;
    // Connecting is the user's decision about a mask that was held back: without it, from now on.
    const decided = record.keptMask !== undefined;
    record.maskLeftOff = false;
    delete record.keptMask;
    if (decided && !record.info.simulated) void persist();
    const current = () => record.session === session;
    const { id, spec, simulated } = record.info;
    linkReported(record, { phase: 'connecting', attempt: 1 });
    const request: NodeLinkRequest = {
      nodeId: id,
      spec,
      prompter: prompts.prompterFor(id, { user: spec.user ?? '', host: spec.host }),
      events: {
        state: (state) => current() && linkReported(record, state),
        reset: (pods) => current() && record.pods.replaceAll(pods),
        change: (type, pod) => current() && (type === 'DELETED' ? record.pods.remove(pod) : record.pods.upsert(type, pod)),
      },
    };
    record.link = simulated && demo ? demo.openLink(request) : openLink(request);
  };

  const closeLink = async (record: NodeRecord) => {
    const link = record.link;
    record.link = null;
    record.session = null;
    prompts.cancelNode(record.info.id);
    await link?.close();
  };

  const disconnect = async (record: NodeRecord) => {
    record.maskLeftOff = false;
    await closeLink(record);
    // A disconnected node shows no pods rather than a stale set that looks live.
    record.pods.clear();
    linkReported(record, { phase: 'disconnected' });
  };

  const createRecord = (spec: NodeSpec, simulated: boolean, id: string, mask: string): NodeRecord => {
    const record: NodeRecord = {
      info: { id, label: spec.label || spec.host, simulated, spec, state: { phase: 'disconnected' }, mask, podCount: 0 },
      pods: new NodePods(id, emitFromPods),
      link: null,
      session: null,
      linkState: { phase: 'disconnected' },
      prompt: null,
      maskLeftOff: false,
    };
    // Before the first publish and the first list, so neither the UI nor the pods ever see it unmasked.
    if (mask) record.pods.setView(maskView(mask));
    nodes.set(id, record);
    return record;
  };

  const addNode = (spec: NodeSpec, simulated = false, id = `node-${nextId++}`, mask = ''): NodeRecord => {
    const record = createRecord(spec, simulated, id, mask);
    publish(record);
    void connect(record);
    return record;
  };

  /**
   * A remembered node comes back with its mask. One whose saved mask no longer parses is not watched
   * unmasked behind the user's back: it waits in error, saying so, until they set a mask or connect.
   */
  const restoreNode = ({ spec, mask, maskProblem, keptMask }: LoadedNode): NodeRecord => {
    if (!maskProblem) return addNode(spec, false, undefined, mask);
    const record = createRecord(spec, false, `node-${nextId++}`, '');
    record.maskLeftOff = true;
    record.keptMask = keptMask;
    linkReported(record, {
      phase: 'error',
      cause: maskProblem,
      nextStep: 'Not connected yet: set the mask again (empty for whole pods) to connect with it, or connect to watch without a mask.',
    });
    return record;
  };

  // Starts asked for at once (a double click) share one: each would start its own simulated kubelet,
  // and the second record would hide the first, whose link and kubelet then ran on unclosed.
  let demoStarting: Promise<NodeRecord> | null = null;
  const startDemo = (): Promise<NodeRecord> => {
    demoStarting ??= (async () => {
      const existing = nodes.get(DEMO_ID);
      if (existing) {
        await connect(existing);
        return existing;
      }
      demo ??= await startDemoKubelet();
      return addNode(demo.spec, true, DEMO_ID);
    })().finally(() => (demoStarting = null));
    return demoStarting;
  };

  const podDetail = (record: NodeRecord, uid: string): PodDetail => {
    const entry = record.pods.get(uid);
    if (!entry) throw new ContractError('not-found', `Pod ${uid} is not on ${record.info.label} (any more).`, 'It was deleted; pick another pod.');
    const shown = record.pods.shown(entry);
    return {
      json: podToKubectlJson(shown),
      summary: summarizePod(shown),
      unknownFields: entry.unknownFields.map((f) => ({
        path: f.path,
        fieldNumber: f.fieldNumber,
        wireType: f.wireType,
        rawHex: Buffer.from(f.raw).toString('hex'),
      })),
    };
  };

  const handlers: RequestHandlers = {
    'app.info': () => ({
      version: packageJson.version,
      mode: options.mode,
      canPickFiles: options.pickSavePath !== undefined,
      defaultExportDir: exportDir,
    }),
    'nodes.list': () => [...nodes.values()].map((r) => structuredClone(r.info)),
    'nodes.add': async (spec) => {
      const record = addNode(spec);
      await persist();
      return structuredClone(record.info);
    },
    'nodes.remove': async ({ nodeId }) => {
      const record = recordOf(nodeId);
      nodes.delete(nodeId);
      await disconnect(record);
      record.pods.close();
      emit({ name: 'nodeRemoved', payload: { nodeId } });
      if (record.info.simulated) {
        // No one watches the simulated kubelet any more; it stops churning until asked for again.
        await demo?.close();
        demo = null;
      } else {
        await persist();
      }
      return {};
    },
    'nodes.connect': async ({ nodeId }) => {
      await connect(recordOf(nodeId));
      return {};
    },
    'nodes.disconnect': async ({ nodeId }) => {
      await disconnect(recordOf(nodeId));
      return {};
    },
    'nodes.startDemo': async () => structuredClone((await startDemo()).info),
    'nodes.setMask': async ({ nodeId, mask }) => {
      const record = recordOf(nodeId);
      const check = checkMask(mask);
      if (!check.ok) return check;
      record.info.mask = mask.trim();
      delete record.keptMask;
      record.pods.setView(maskView(mask));
      publish(record);
      // A node held back for its unreadable saved mask starts as it would have, now with this one.
      if (record.maskLeftOff) void connect(record);
      // The demo node is not remembered, nor its mask.
      if (!record.info.simulated) await persist();
      return check;
    },
    'sshHosts.list': () => listSshHosts(options.sshConfigFile),
    'pods.rows': ({ nodeId }) => recordOf(nodeId).pods.snapshot(),
    'pods.get': ({ nodeId, uid }) => podDetail(recordOf(nodeId), uid),
    'pods.export': async ({ nodeId, uids, format, path, replace }) => {
      const record = recordOf(nodeId);
      const entries = uids === 'all' ? [...record.pods.values()] : uids.flatMap((uid) => record.pods.get(uid) ?? []);
      if (entries.length === 0) {
        throw new ContractError('not-found', `None of the selected pods is on ${record.info.label} any more.`, 'Clear the filter and export again.');
      }
      const target = await chooseExportTarget({ path, replace, format, nodeLabel: record.info.label, exportDir, pickSavePath: options.pickSavePath });
      if (target === null) return { status: 'cancelled' };
      const bytes = await writeExport(target, entries.map((e) => record.pods.shown(e)), format);
      return { status: 'saved', path: target.path, count: entries.length, bytes };
    },
    'prompts.pending': () => prompts.pending(),
    'prompts.answer': ({ promptId, answer }) => {
      prompts.answer(promptId, answer);
      return {};
    },
    'mask.validate': ({ mask }) => checkMask(mask),
    'notices.list': () => notices.list(),
    'notices.dismiss': ({ id }) => {
      notices.dismiss(id);
      return {};
    },
  };

  const saved = await loadRemembered();
  for (const node of saved) restoreNode(node);
  const demoWanted = options.demo ?? 'firstStart';
  if (demoWanted === true || (demoWanted === 'firstStart' && saved.length === 0)) await startDemo();

  return {
    handlers,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      for (const record of nodes.values()) {
        await disconnect(record);
        record.pods.close();
      }
      nodes.clear();
      await saving;
      await demo?.close();
      listeners.clear();
    },
  };
}
