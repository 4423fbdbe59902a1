import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ContractError, detachedCall, type AddNodeSpec, type NodeInfo, type RequestHandlers, type SettingsChange } from '../contract';
import packageJson from '../../package.json';
import type { AppEvent } from '../core/app-event';
import type { NodeLink, NodeLinkRequest } from '../core/node-link';
import { openKubeletNodeLink } from './kubelet-node-link';
import { defaultPinsFile } from '../kubelet-rest/kubelet-certificate-pins';
import { chooseExportTarget, writeExport } from './pod-export';
import { requireFileKind } from './written-file-kind';
import type { PodObject } from '../pod/pod-tree';
import type { CrashLog } from '../recording/crash-log';
import { RECORDING_FILE_EXTENSIONS } from '../recording/recording-format';
import { whyCannotWrite } from '../fs/write-error';
import { createCore } from '../core/core';
import type { CoreOptions, RememberedNode } from '../core/core-types';
import type { HistoryLimits } from '../core/pod-history';
import { loadSavedNodes, saveNodes, savedNodesPath, setAsideSavedNodes, type LoadedNode } from './saved-nodes';
import { expandHostLines, listSshHosts } from './ssh-hosts';
import { openPodFile, readUploadedPodFile } from '../snapshot/open-pod-file';
import { recordingFileName } from '../util/default-file-names';
import type { PodFile, PodFileProvenance } from '../snapshot/pod-file';
import { writeSnapshotSidecar } from '../snapshot/snapshot-provenance';
import { offlineSourceOf } from './pod-file-source';
import { NodeRecorder } from './node-recorder';
import { LiveCrashLogs } from './live-crash-logs';
import { openPresetStore } from './preset-store';
import { tableHandlers } from './table-handlers';
import { nodeInfoHandlers } from './node-info-service';
import type { NodePrograms } from '../node-info/node-commands';
import type { NodeReachable } from '../source/node-access';
import { openSettingsStore } from './settings-store';
import { openTableViewsStore } from './table-views-store';
import { createJumpConnectionPool } from '../ssh/shared-jump-connections';
import { createConcurrencyLimit, DEFAULT_OPEN_CONCURRENCY, DEFAULT_STALL_MS } from '../util/concurrency-limit';
import { createMemoryRelease } from './memory-release';
import { createPodLogsService } from './pod-logs-service';
import { isOffline, sameSource } from '../source/kinds/source-kinds';
import { sourceKindNode, type HostOpening, type HostSourceContext, type KindLinkOptions } from '../source/source-registry';

export interface HostOptions {
  mode: 'electron' | 'browser';
  /** Where the added nodes are remembered. */
  stateDir: string;
  /** Where exports go by default; the user's Downloads (or home). */
  defaultExportDir?: string;
  /** A native save dialog (Electron); null when cancelled. Without it exports need a path. */
  pickSavePath?: (suggestedPath: string) => Promise<string | null>;
  /** A native open dialog for snapshot and recording files (Electron); [] when cancelled. */
  pickOpenPaths?: () => Promise<string[]>;
  /** The ssh_config to read (like ssh -F); default ~/.ssh/config. */
  sshConfigFile?: string;
  /**
   * Start the simulated demo node right away: 'firstStart' (default) when no node is remembered
   * yet, so a new user sees something live; true always; false never (nodes.startDemo still can).
   */
  demo?: boolean | 'firstStart';
  /** Snapshot and recording files to open at start (nodescope ui FILE...). */
  files?: string[];
  /** Nodes to add at start (nodescope ui HOST... / PATTERN), unless the node list has them already. */
  nodes?: AddNodeSpec[];
  /** How much pod history each source keeps; default DEFAULT_HISTORY_LIMITS. */
  history?: HistoryLimits;
  /** Settings for this run only, over the saved ones (`nodescope ui --memory-budget`). */
  settings?: SettingsChange;
  /**
   * The kubelet link the kinds that dial one open (ssh, unix), with what the kind tells it (`kind`);
   * default: openKubeletNodeLink. Tests put a simulated kubelet on this machine behind added nodes, to
   * check what the UI relies on without an SSH server.
   */
  openLink?: (request: NodeLinkRequest, kind: KindLinkOptions) => NodeLink;
  /** Where nodes keep container logs (the kubelet's podLogsDir); default /var/log/pods (tests: a folder of their own). */
  podLogsDir?: string;
  /** Where nodes' programs are (journalctl, crictl…) when not on their PATH; tests: stand-ins. */
  nodePrograms?: Partial<NodePrograms>;
  /** How often a followed container log is looked at for new lines; default 1 s (tests: less). */
  logPollIntervalMs?: number;
}

/**
 * The app as a transport serves it (Electron's IPC, the browser-mode socket): a handler per contract
 * request and one stream of contract events, both validated with the contract's schemas by the
 * transport (handleRequest, validateEvent) before anything crosses to the UI.
 */
export interface Host {
  handlers: RequestHandlers;
  subscribe(listener: (event: AppEvent) => void): () => void;
  /**
   * Opens an uploaded file's pods (browser mode), with the provenance of the sidecar uploaded beside it;
   * returns the new source's id.
   */
  openUploaded(chunks: AsyncIterable<Uint8Array>, name: string, sidecar?: string): Promise<string>;
  /**
   * Opens files the user dropped on the window, their paths as the host (Electron's preload, not the
   * page) read them; from then on the page may name them again (undo reopens a removed file source).
   */
  openDropped(paths: string[]): Promise<NodeInfo[]>;
  close(): Promise<void>;
}

/**
 * The host, as Electron main and the browser-mode server run it: the browser-safe core (app/core)
 * with what needs Node plugged in: SSH and local sockets, the demo kubelet, nodes.json and the mask
 * presets, files, exports and recordings, and the host's dialogs.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const exportDir = options.defaultExportDir ?? [join(homedir(), 'Downloads'), homedir()].find((d) => existsSync(d)) ?? homedir();
  // Every node the app opens shares one login per jump host, and at most a few dial at once (docs/cli.md, "Many sources").
  const jumpPool = createJumpConnectionPool();
  const openLimit = createConcurrencyLimit(DEFAULT_OPEN_CONCURRENCY, { stallMs: DEFAULT_STALL_MS });
  const linkOptions = {
    jumpPool,
    openLimit,
    pinsFile: defaultPinsFile(options.stateDir),
    ...(options.sshConfigFile ? { sshConfigFile: options.sshConfigFile } : {}),
    ...(options.podLogsDir ? { podLogsDir: options.podLogsDir } : {}),
  };
  const kinds: HostSourceContext = {
    kubeletLink: (request, kind = {}) => (options.openLink ? options.openLink(request, kind) : openKubeletNodeLink(request, { ...linkOptions, ...kind })),
  };
  /** Each kind as this host opens it (app/source/source-registry.ts), made on its first source. */
  const openings = new Map<string, HostOpening>();
  const openingOf = (kind: string): HostOpening => {
    let opening = openings.get(kind);
    if (!opening) {
      const host = sourceKindNode(kind).host;
      if (!host) throw new Error(`A ${kind} source is not opened as a live link.`);
      opening = host(kinds);
      openings.set(kind, opening);
    }
    return opening;
  };
  // A new link's first list decodes every pod once: garbage the heap would keep its size for while the node
  // churns (memory-release.ts). That is any link the core opens: a connect, a reconnect after an error, a
  // mask that fetches the pods again. Not after every relist of a node already shown, nor after a node is
  // dropped: the server is idle then and V8's own reducer runs (released at once, the reconnect that
  // followed cost a fifth more CPU growing the heap back).
  // Not while nodes are still being opened (a thousand at once): the collection would stall their opening.
  const memory = createMemoryRelease({ busy: () => openLimit.active() + openLimit.waiting() > 0 });
  /** Nodes whose current link has shown its first list. */
  const listedSinceConnect = new Set<string>();

  /** Set when the saved list could be neither read nor moved aside: saving would write over it. */
  let keepSavedListAsItIs = false;
  // Saves run one after another, so the file always ends with the latest list.
  let saving = Promise.resolve();
  const persist = (saved: RememberedNode[]) => {
    if (keepSavedListAsItIs) return saving;
    saving = saving
      .then(() => saveNodes(options.stateDir, saved))
      .then(
        () => core.notices.clear('save-failed'),
        (err: unknown) => {
          const why = whyCannotWrite(err) ?? (err as Error).message;
          console.error(`nodescope: could not remember the node list: ${(err as Error).message}`);
          core.notices.raise(
            'save-failed',
            `Nodescope could not save the node list to ${savedNodesPath(options.stateDir)}: ${why}. The nodes and masks you see are kept until Nodescope closes; any list saved earlier is unchanged.`,
            'Free up space or fix the folder\'s permissions; the next change to a node saves the whole list again.',
          );
        },
      );
    return saving;
  };

  const recorder = new NodeRecorder({
    current: (nodeId) => core.currentPods(nodeId),
    node: (nodeId) => core.node(nodeId),
    marked: (nodeId, path) => core.setRecording(nodeId, path),
    problem: (message, nextStep) => core.notices.raise('recording-failed', message, nextStep),
    logFiles: async (nodeId) => links.get(nodeId)?.logFiles?.(),
  });

  // Always on for a live node: the end of each instance that ends goes into its pod's history.
  const liveLogs = new LiveCrashLogs({
    logFiles: async (nodeId) => links.get(nodeId)?.logFiles?.(),
    keep: (nodeId, log) => core.keepCrashLog(nodeId, log),
    now: Date.now,
  });

  const presets = await openPresetStore(options.stateDir);
  const tableViews = await openTableViewsStore(options.stateDir);
  const settings = await openSettingsStore(options.stateDir, { ...(options.settings ? { forThisRun: options.settings } : {}) });
  /** Each node's current link, for what is read through it besides the pods (container logs). */
  const links = new Map<string, NodeLink & Partial<NodeReachable>>();
  /** Each node's current link's end, for what follows its node (the kubelet's journal). */
  const linksClosed = new Map<string, AbortSignal>();
  const coreOptions: CoreOptions = {
    openLink: (request) => {
      listedSinceConnect.delete(request.nodeId);
      const link = openingOf(request.spec.kind).openLink(request);
      links.set(request.nodeId, link);
      const closed = new AbortController();
      linksClosed.set(request.nodeId, closed.signal);
      return {
        ...link,
        close: () => {
          if (links.get(request.nodeId) === link) links.delete(request.nodeId);
          if (linksClosed.get(request.nodeId) === closed.signal) linksClosed.delete(request.nodeId);
          closed.abort();
          podLogs.stopNode(request.nodeId);
          return link.close();
        },
      };
    },
    remembered: persist,
    presets,
    removed: async (info) => {
      listedSinceConnect.delete(info.id);
      recorder.stopQuietly(info.id);
      liveLogs.removed(info.id);
      fileProvenance.delete(info.id);
      recordedLogs.delete(info.id);
      // What the kind started for its sources (the demo's simulated kubelet) stops until asked for again.
      await openings.get(info.spec.kind)?.removed?.();
    },
    edited: async (info, sameMachine) => {
      // A recording is one node's pods: another machine's would go on under the old node's name.
      if (sameMachine || !info.recordingTo) return;
      const why = `${info.label} now reaches another host, whose pods are not those of the node recorded`;
      // The edit goes on whatever the file does: a close that fails is said, never the edit half done.
      const stopped = await recorder.stop(info.id).catch((err: unknown) => err as Error);
      core.notices.raise(
        'recording-stopped',
        stopped instanceof Error
          ? `Recording ${info.recordingTo} stopped (${why}), but closing it failed: ${stopped.message}.`
          : `Recording ${stopped.path} stopped after ${stopped.events} events: ${why}.`,
        'What was recorded is kept and opens as a recording; start a new one to record this host.',
      );
    },
    podEvent: (nodeId, type, pods) => {
      if (type === 'RESET' && !listedSinceConnect.has(nodeId)) {
        listedSinceConnect.add(nodeId);
        memory.afterLargeChange();
      }
      recorder.podEvent(nodeId, type, pods);
      liveLogs.podEvent(nodeId, type, pods);
    },
    // Every pod's bytes of a node let go of (rows only), or taken in again: the heap is worth giving back.
    reheld: () => memory.afterLargeChange(true),
    ...(options.history ? { history: options.history } : {}),
    settings: settings.get(),
  };
  const core = createCore(coreOptions);
  const podLogs = createPodLogsService({
    node: (nodeId) => core.node(nodeId),
    pod: async (nodeId, uid) => (await core.handlers['pods.get']({ nodeId, uid }, detachedCall())).summary,
    logFiles: async (nodeId) => links.get(nodeId)?.logFiles?.(),
    kubeletLogs: async (nodeId) => links.get(nodeId)?.kubeletLogs?.(),
    crashLogs: (nodeId) => recordedLogs.get(nodeId) ?? core.crashLogs(nodeId),
    podObject: async (nodeId, uid) => JSON.parse((await core.handlers['pods.get']({ nodeId, uid }, detachedCall())).json) as PodObject,
    ...(options.logPollIntervalMs !== undefined ? { pollIntervalMs: options.logPollIntervalMs } : {}),
  });
  if (presets.problem) core.notices.raise('presets-unreadable', presets.problem.message, presets.problem.nextStep);
  if (tableViews.problem) core.notices.raise('table-views-unreadable', tableViews.problem.message, tableViews.problem.nextStep);
  if (settings.problem) core.notices.raise('settings-unreadable', settings.problem.message, settings.problem.nextStep);

  /**
   * The remembered nodes; an unreadable list is moved aside whole (never written over), the app starts
   * without it and says where the file went.
   */
  const loadRemembered = async (): Promise<LoadedNode[]> => {
    const notices = core.notices;
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

  /** Where each opened file's pods came from, so an export of them says so too. */
  const fileProvenance = new Map<string, PodFileProvenance>();
  /** The container logs each opened recording kept (the Logs tab reads them). */
  const recordedLogs = new Map<string, readonly CrashLog[]>();
  const openFile = (file: PodFile) => {
    const info = core.openOffline(offlineSourceOf(file));
    fileProvenance.set(info.id, file.provenance);
    if (file.kind === 'recording') {
      recordedLogs.set(info.id, file.crashLogs);
      // Its pods' histories list them too (the History tab), the same objects: no second copy.
      for (const log of file.crashLogs) core.keepCrashLog(info.id, log);
    }
    return info;
  };

  /**
   * Files the user chose: in the open dialog, by dropping them on the window, on the command line. In
   * Electron these are the only paths the page may name, as only the save dialog names an export: a
   * compromised page could otherwise open any file of the user's, and the reader's errors would show
   * the page its first bytes.
   */
  const chosenFiles = new Set<string>();
  const openChosenFiles = (paths: string[]) => {
    for (const path of paths) chosenFiles.add(resolve(path));
    return openFiles(paths);
  };

  /** Opens files one by one; a bad one is reported with what is wrong and where, the others still open. */
  const openFiles = async (paths: string[]) => {
    const opened = [];
    const problems: string[] = [];
    for (const path of paths) {
      try {
        opened.push(openFile(await openPodFile(path)));
      } catch (err) {
        problems.push(err instanceof Error ? err.message : String(err));
      }
    }
    if (problems.length > 0 && opened.length === 0) {
      throw new ContractError('invalid-input', problems.join(' '), 'Pick a kubectl or Nodescope export, a .pb of pod bytes, or a Nodescope recording.');
    }
    if (problems.length > 0) core.notices.raise('open-failed', `Some files could not be opened: ${problems.join(' ')}`, 'The others are open; check those files.');
    return opened;
  };

  const handlers: RequestHandlers = {
    ...core.handlers,
    'app.info': () => ({
      version: packageJson.version,
      mode: options.mode,
      canPickFiles: options.pickSavePath !== undefined,
      canOpenFiles: options.pickOpenPaths !== undefined,
      defaultExportDir: exportDir,
      sshConfigFile: options.sshConfigFile ?? '~/.ssh/config',
    }),
    'sshHosts.list': () => listSshHosts(options.sshConfigFile),
    'sshHosts.expand': ({ text }) => expandHostLines(text, options.sshConfigFile),
    'nodes.connect': (input, call) => {
      // Connecting by hand is the user saying a jump host's refused key or login is fixed: dial it again.
      jumpPool.retry();
      return core.handlers['nodes.connect'](input, call);
    },
    'pods.export': async ({ nodeId, uids, format, path, replace }, call) => {
      const node = core.node(nodeId);
      const pods = await core.shownPods(nodeId, uids);
      if (pods.length === 0) {
        throw new ContractError('not-found', `None of the selected pods is on ${node.label} any more.`, 'Clear the filter and export again.');
      }
      const target = await chooseExportTarget({ path, replace, format, nodeLabel: node.label, exportDir, pickSavePath: options.pickSavePath });
      if (target === null) return { status: 'cancelled' };
      const written = await writeExport(target, pods, format, { mask: core.fieldMask(nodeId), signal: call.signal, progress: call.progress });
      // Where and when the pods were taken goes beside the export, which stays exactly kubectl's output:
      // a file's own provenance (an offline source is never passed off as live), else this node now.
      const fromFile = fileProvenance.get(nodeId);
      const provenance: PodFileProvenance = fromFile
        ? { ...fromFile, origin: `nodescope ui, from the file ${isOffline(node.spec) ? node.spec.file : node.label}` }
        : { node: node.label, takenAt: new Date().toISOString(), origin: 'nodescope ui' };
      await writeSnapshotSidecar(target.path, { provenance, bytes: written.bytes, pods: pods.length }).catch((err: unknown) => {
        core.notices.raise('export-provenance', `The export ${target.path} was saved, but not where it came from: ${(err as Error).message}.`, 'The export itself is complete.');
      });
      return { status: 'saved', path: target.path, count: pods.length, ...written };
    },
    'sources.open': async ({ paths }) => {
      if (paths === undefined) {
        if (!options.pickOpenPaths) {
          throw new ContractError('invalid-input', 'Give the paths of the files to open.', 'In a browser, upload the file with "Open snapshot…" or drop it on the window.');
        }
        const picked = await options.pickOpenPaths();
        if (picked.length === 0) return { status: 'cancelled' };
        return { status: 'opened', nodes: await openChosenFiles(picked) };
      }
      const notChosen = options.mode === 'electron' ? paths.find((path) => !chosenFiles.has(resolve(path))) : undefined;
      if (notChosen !== undefined) {
        throw new ContractError(
          'invalid-input',
          `In the desktop app files are opened from the open dialog or by dropping them on the window, not by a path the page names (${notChosen}).`,
          'Use Open snapshot… and pick the file there, or drop it on the window.',
          'paths',
        );
      }
      return { status: 'opened', nodes: await openFiles(paths) };
    },
    'recording.start': async ({ nodeId, path }) => {
      const node = core.node(nodeId);
      // As for exports: in Electron only the save dialog names a file to write, never the page.
      if (path !== undefined && options.mode === 'electron') {
        throw new ContractError('invalid-input', 'In the desktop app the recording file is chosen in the save dialog.', 'Start the recording again and pick the file there.');
      }
      // A path the page names (browser mode) is held to what exports are: an absolute path to a file of the
      // right kind. The writer then makes it new and private, never over a file, link, pipe or device.
      if (path !== undefined) requireFileKind(path, RECORDING_FILE_EXTENSIONS, 'Recordings', 'node.recording');
      let target = path ?? null;
      if (target === null) {
        if (!options.pickSavePath) {
          throw new ContractError('invalid-input', 'Give a file path for the recording.', `For example ${join(exportDir, 'node.recording.ndjson')}.`);
        }
        target = await options.pickSavePath(join(exportDir, recordingFileName(node.label, new Date())));
        if (target === null) return { status: 'cancelled' };
      }
      await recorder.start(nodeId, target);
      return { status: 'recording', path: target };
    },
    'recording.stop': ({ nodeId }) => recorder.stop(nodeId),
    ...podLogs.handlers,
    ...tableHandlers(core, tableViews),
    'settings.get': () => settings.get(),
    'settings.set': async (change) => {
      const next = await settings.set(change);
      core.applySettings(next);
      return next;
    },
    ...nodeInfoHandlers({
      node: (nodeId) => core.node(nodeId),
      nodeAccess: async (nodeId) => links.get(nodeId)?.nodeAccess?.(),
      pods: async (nodeId) => ({ pods: (await core.currentPods(nodeId)).map((p) => p.pod), masked: core.fieldMask(nodeId) !== null }),
      linkClosed: (nodeId) => linksClosed.get(nodeId),
      ...(options.nodePrograms ? { programs: options.nodePrograms } : {}),
    }),
  };

  const saved = await loadRemembered();
  for (const node of saved) core.restore(node);
  if (options.files?.length) {
    try {
      await openChosenFiles(options.files);
    } catch (err) {
      core.notices.raise('open-failed', err instanceof Error ? err.message : String(err), 'Check the file and open it again with "Open snapshot…".');
    }
  }
  const named = (options.nodes ?? []).filter((spec) => !saved.some((n) => sameSource(n.spec, spec)));
  if (named.length > 0) await core.handlers['nodes.addMany']({ nodes: named }, detachedCall());
  const demoWanted = options.demo ?? 'firstStart';
  if (demoWanted === true || (demoWanted === 'firstStart' && saved.length === 0 && !options.files?.length && !options.nodes?.length)) await core.handlers['nodes.startDemo']({}, detachedCall());

  return {
    handlers,
    subscribe: (listener) => core.subscribe(listener),
    openUploaded: async (chunks, name, sidecar) => openFile(await readUploadedPodFile(chunks, name, sidecar)).id,
    openDropped: openChosenFiles,
    async close() {
      podLogs.close();
      memory.close();
      await recorder.close();
      await core.close();
      await saving;
      await Promise.all([...openings.values()].map((opening) => opening.close?.()));
    },
  };
}
